package io.videoworld.jobs;

import io.videoworld.core.ExclusionRules;
import io.videoworld.engines.privacy.RedactionKind;
import io.videoworld.engines.privacy.Redactor;
import java.util.EnumSet;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/** What the ingest job keeps from perception (exclusion rules) and redacts from read text before it is embedded, indexed or remembered. */
public final class PrivacyOptions {
    public static final ConfigOption<Boolean> REDACT_EMAIL = ConfigOptions.key("vw.privacy.redact.email").booleanType()
            .defaultValue(true).withDescription("Replace e-mail addresses in OCR text with [redacted:email].");
    public static final ConfigOption<Boolean> REDACT_PHONE = ConfigOptions.key("vw.privacy.redact.phone").booleanType()
            .defaultValue(true).withDescription("Replace telephone numbers written with a country code (+44 20 ...), an area code in "
                    + "brackets or as 555-123-4567 with [redacted:phone].");
    public static final ConfigOption<Boolean> REDACT_CARD = ConfigOptions.key("vw.privacy.redact.card").booleanType()
            .defaultValue(true).withDescription("Replace payment card numbers (13 to 19 digits passing the Luhn check) with [redacted:card].");
    public static final ConfigOption<Boolean> REDACT_IBAN = ConfigOptions.key("vw.privacy.redact.iban").booleanType()
            .defaultValue(true).withDescription("Replace IBANs that pass the mod-97 check with [redacted:iban].");
    public static final ConfigOption<Boolean> REDACT_KEY = ConfigOptions.key("vw.privacy.redact.key").booleanType()
            .defaultValue(true).withDescription("Replace API keys and tokens with [redacted:key]: known prefixes (sk-, ghp_, github_pat_, "
                    + "AKIA, xox*, AIza, glpat-, hf_, npm_, JSON web tokens, private key headers) and strings of 20 characters or more "
                    + "that mix upper case, lower case and digits with high entropy.");
    public static final ConfigOption<Boolean> REDACT_PASSWORD = ConfigOptions.key("vw.privacy.redact.password").booleanType()
            .defaultValue(true).withDescription("Replace the value after a password label (\"Password: ...\", or alone on the line "
                    + "under a bare label) with [redacted:password].");
    public static final ConfigOption<Boolean> REDACT_PIXELS = ConfigOptions.key("vw.privacy.redact.pixels").booleanType()
            .defaultValue(true).withDescription("Black out, in the keyframes kept in the frame store, the boxes of the OCR lines in which "
                    + "something was redacted. Applies when perception is on and at least one redaction kind is: keyframes are then "
                    + "stored after they are read, and a keyframe whose reading failed is not stored.");

    public static final ConfigOption<List<String>> EXCLUDE = ConfigOptions.key("vw.privacy.exclude").stringType().asList()
            .defaultValues().withDescription("Exclusion rules, separated by ';': app:NAME (the application a window title names), "
                    + "title:REGEX, domain:HOST (the host or a subdomain in an address bar), url:REGEX, private (private or incognito "
                    + "browsing). Each frame's top band is read first; a frame whose chrome matches goes on as a grey picture (no pixels "
                    + "or text of it are perceived or stored) and vw-exclusions records its time and rule. Empty: nothing is read or excluded.");

    public static final ConfigOption<Boolean> STREAM_RULES = ConfigOptions.key("vw.privacy.stream-rules").booleanType()
            .defaultValue(false).withDescription("Also apply the exclusion rules set per stream over REST (PUT /v1/streams/{id}/exclusions, "
                    + "kept in vw-rules): each version from its since time, by the frames' event time. Like vw.privacy.exclude, it turns off "
                    + "the detector's own read of Kafka.");

    /** Whether the job reads window chrome: rules of its own, or the streams' rules from Elasticsearch. */
    public static boolean readsChrome(Configuration conf) {
        return conf.get(STREAM_RULES) || !exclusions(conf).isEmpty();
    }

    /** The exclusion rules the options set; throws IllegalArgumentException naming a spec that is not a rule. */
    public static ExclusionRules exclusions(Configuration conf) {
        return ExclusionRules.parse(conf.get(EXCLUDE));
    }

    /** Whether keyframes go to the frame store from perception, their redacted lines blacked out, rather than from the shot stage. */
    public static boolean redactsPixels(Configuration conf) {
        return conf.get(REDACT_PIXELS) && conf.get(PerceptionOptions.ENABLED) && !redactor(conf).isOff();
    }

    /** The redactor the options turn on. */
    public static Redactor redactor(Configuration conf) {
        EnumSet<RedactionKind> on = EnumSet.noneOf(RedactionKind.class);
        add(on, conf.get(REDACT_EMAIL), RedactionKind.EMAIL);
        add(on, conf.get(REDACT_PHONE), RedactionKind.PHONE);
        add(on, conf.get(REDACT_CARD), RedactionKind.CARD);
        add(on, conf.get(REDACT_IBAN), RedactionKind.IBAN);
        add(on, conf.get(REDACT_KEY), RedactionKind.KEY);
        add(on, conf.get(REDACT_PASSWORD), RedactionKind.PASSWORD);
        return new Redactor(on);
    }

    private static void add(EnumSet<RedactionKind> on, boolean yes, RedactionKind kind) {
        if (yes) {
            on.add(kind);
        }
    }

    private PrivacyOptions() {}
}
