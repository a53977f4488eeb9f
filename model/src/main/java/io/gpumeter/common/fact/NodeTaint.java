package io.gpumeter.common.fact;

/** One of a node's {@code spec.taints}. */
public record NodeTaint(String key, String value, String effect) {
}
