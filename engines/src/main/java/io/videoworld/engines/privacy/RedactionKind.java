package io.videoworld.engines.privacy;

/** A kind of secret or personal datum the redactor removes from text, named as its marker names it. */
public enum RedactionKind {
    /** E-mail addresses. */
    EMAIL,
    /** Telephone numbers written with a country code, a trunk prefix or in the North American grouping. */
    PHONE,
    /** Payment card numbers of 13 to 19 digits that pass the Luhn check. */
    CARD,
    /** International bank account numbers that pass the ISO 13616 mod-97 check. */
    IBAN,
    /** API keys and tokens: known prefixes, JSON web tokens, private key headers and high-entropy strings. */
    KEY,
    /** The value written after a password label, on its line or alone on the next one. */
    PASSWORD;

    /** The name in markers and documents: the lower-case constant name. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
