package io.gpumeter.common.fact;

/**
 * Something the ledger did not take as it came while deriving books from a batch: the object's other books are kept
 * as usual, the part named here books nothing.
 *
 * @param kind   what was found, e.g. {@code HAMI_GRANT_UNVERIFIED}
 * @param key    the object, as the ledger keys it (namespace/name and uid for a pod)
 * @param gpu    the card concerned, or null
 * @param check  the rule the part failed, e.g. {@code CARD_NOT_ON_NODE}
 * @param detail what the rule found, in words
 */
public record BookFinding(String kind, String key, String gpu, String check, String detail) {
}
