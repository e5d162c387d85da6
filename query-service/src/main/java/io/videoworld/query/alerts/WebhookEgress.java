package io.videoworld.query.alerts;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where webhooks may be posted: an {@code http} or {@code https} URL without user info whose host
 * resolves only to public addresses, or to addresses inside a configured network. Loopback, private,
 * link-local, carrier-grade NAT, unique-local, multicast and reserved addresses are refused unless a
 * configured network covers them, so a token holder cannot make the server call its own admin
 * ports, the cloud metadata service or the machines beside it. When host names are configured only
 * those hosts (and hosts inside configured networks) are allowed. A host name alone never opens a
 * private address: a name can be pointed anywhere later, a network cannot.
 *
 * <p>Checked when an alert is created and again before every delivery attempt, on the addresses
 * the host resolves to at that moment.
 */
public final class WebhookEgress {
    /** Addresses that are not on the public internet, by prefix; the JDK's own tests miss several of them. */
    private static final List<Network> NOT_PUBLIC = List.of(
            Network.parse("0.0.0.0/8"), Network.parse("10.0.0.0/8"), Network.parse("100.64.0.0/10"), Network.parse("127.0.0.0/8"),
            Network.parse("169.254.0.0/16"), Network.parse("172.16.0.0/12"), Network.parse("192.0.0.0/24"), Network.parse("192.0.2.0/24"),
            Network.parse("192.168.0.0/16"), Network.parse("198.18.0.0/15"), Network.parse("198.51.100.0/24"),
            Network.parse("203.0.113.0/24"), Network.parse("224.0.0.0/4"), Network.parse("240.0.0.0/4"), Network.parse("::/127"),
            Network.parse("64:ff9b::/96"), Network.parse("100::/64"), Network.parse("2001:db8::/32"),
            Network.parse("2002::/16"), Network.parse("fc00::/7"), Network.parse("fe80::/10"), Network.parse("fec0::/10"),
            Network.parse("ff00::/8"));

    private static final Network UNIQUE_LOCAL = Network.parse("fc00::/7");

    /** Why a URL may not be called; the message says which rule refused it. */
    public static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    /** Turns a host name into its addresses; tests give names fixed addresses. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private final List<String> hosts;
    private final List<Network> networks;
    private final Resolver resolver;

    private WebhookEgress(List<String> hosts, List<Network> networks, Resolver resolver) {
        this.hosts = List.copyOf(hosts);
        this.networks = List.copyOf(networks);
        this.resolver = resolver;
    }

    /** Any host with public addresses only: the default. */
    public static WebhookEgress publicOnly() {
        return new WebhookEgress(List.of(), List.of(), InetAddress::getAllByName);
    }

    /**
     * @param hosts host names webhooks may name ({@code hooks.example.com}, or {@code *.example.com} for its subdomains); empty
     *     for any host with public addresses
     * @param networks CIDRs ({@code 10.1.0.0/16}, {@code 127.0.0.1/32}, {@code fd00::/8}) or single addresses webhooks may reach
     *     whatever their kind, loopback and private included
     * @throws IllegalArgumentException for an entry that is neither
     */
    public static WebhookEgress of(List<String> hosts, List<String> networks) {
        List<String> names = new ArrayList<>();
        for (String h : hosts == null ? List.<String>of() : hosts) {
            String n = normalise(h);
            if (!n.matches("(\\*\\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?")) {
                throw new IllegalArgumentException("a webhook host is a name or *.name, not '" + h + "'");
            }
            names.add(n);
        }
        List<Network> nets = new ArrayList<>();
        for (String n : networks == null ? List.<String>of() : networks) {
            nets.add(Network.parse(n.strip()));
        }
        return new WebhookEgress(names, nets, InetAddress::getAllByName);
    }

    /** The same rules over another resolver. */
    public WebhookEgress withResolver(Resolver resolver) {
        return new WebhookEgress(hosts, networks, resolver);
    }

    /**
     * Checks a webhook URL and the addresses its host resolves to now.
     *
     * @throws Refused naming the rule the URL breaks
     */
    public void check(String url) throws Refused {
        URI u;
        try {
            u = new URI(url);
        } catch (Exception e) {
            throw new Refused("not a URL");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new Refused("only http and https URLs are called, not '" + scheme + ":'");
        }
        if (u.getRawUserInfo() != null || u.getRawAuthority() != null && u.getRawAuthority().contains("@")) {
            throw new Refused("a webhook URL may not carry user info; sign deliveries with the alert's secret instead");
        }
        if (u.getHost() == null || u.getHost().isEmpty()) {
            throw new Refused("the URL has no host");
        }
        String host = normalise(u.getHost());
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (UnknownHostException e) {
            throw new Refused("host '" + host + "' does not resolve");
        }
        if (addresses == null || addresses.length == 0) {
            throw new Refused("host '" + host + "' does not resolve");
        }
        boolean named = hosts.isEmpty() || hosts.stream().anyMatch(h -> h.startsWith("*.") ? host.endsWith(h.substring(1)) : host.equals(h));
        for (InetAddress a : addresses) {
            if (networks.stream().anyMatch(n -> n.contains(a))) {
                continue;
            }
            if (!isPublic(a)) {
                throw new Refused("host '" + host + "' resolves to " + a.getHostAddress() + ", a " + kind(a)
                        + " address; only networks the server allows (--webhook-networks) may be called");
            }
            if (!named) {
                throw new Refused("host '" + host + "' is not among the allowed webhook hosts (--webhook-hosts)");
            }
        }
    }

    static boolean isPublic(InetAddress a) {
        return !(a.isAnyLocalAddress() || a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress() || a.isMulticastAddress()
                || NOT_PUBLIC.stream().anyMatch(n -> n.contains(a)));
    }

    private static String kind(InetAddress a) {
        if (a.isLoopbackAddress()) {
            return "loopback";
        }
        if (a.isLinkLocalAddress()) {
            return "link-local";
        }
        if (a.isSiteLocalAddress() || UNIQUE_LOCAL.contains(a)) {
            return "private";
        }
        return "non-public";
    }

    private static String normalise(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    /** An address prefix. */
    record Network(byte[] prefix, int bits) {
        static Network parse(String cidr) {
            int slash = cidr.indexOf('/');
            String addr = slash < 0 ? cidr : cidr.substring(0, slash);
            // Literal addresses only: a name here would be looked up, and a network is meant to be fixed.
            if (!addr.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
                throw new IllegalArgumentException("a webhook network is an address or CIDR such as 10.0.0.0/8, not '" + cidr + "'");
            }
            byte[] bytes;
            try {
                bytes = InetAddress.getByName(addr).getAddress();
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("a webhook network is an address or CIDR such as 10.0.0.0/8, not '" + cidr + "'");
            }
            // A v4-mapped literal comes back as four bytes; its prefix length counts the sixteen.
            int max = bytes.length * 8;
            int bits;
            try {
                bits = slash < 0 ? max : Integer.parseInt(cidr.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("a webhook network's prefix length is a number, not '" + cidr + "'");
            }
            if (addr.contains(":") && bytes.length == 4) {
                bits -= 96;
            }
            if (bits < 0 || bits > max) {
                throw new IllegalArgumentException("a webhook network's prefix length is from 0 to " + max + ", not '" + cidr + "'");
            }
            return new Network(bytes, bits);
        }

        boolean contains(InetAddress a) {
            byte[] b = a.getAddress();
            if (b.length != prefix.length) {
                return false;
            }
            int full = bits / 8;
            for (int i = 0; i < full; i++) {
                if (b[i] != prefix[i]) {
                    return false;
                }
            }
            int rest = bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xff << (8 - rest) & 0xff;
            return (b[full] & mask) == (prefix[full] & mask);
        }
    }
}
