package io.gpumeter.common.fact;

/**
 * An object whose facts were stored but whose books could not be derived from them.
 *
 * @param book   the kind of book (pod, node, workload, …)
 * @param key    the object, as the ledger keys it (namespace/name and uid for a pod)
 * @param reason what about its facts no rule could read, in words
 */
public record SkippedBook(String book, String key, String reason) {
}
