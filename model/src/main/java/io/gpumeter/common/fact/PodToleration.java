package io.gpumeter.common.fact;

/**
 * One of a pod's {@code spec.tolerations}.
 *
 * @param key      null with operator Exists tolerates every taint
 * @param operator Equal (the default) or Exists
 * @param effect   NoSchedule, PreferNoSchedule or NoExecute; null tolerates every effect
 */
public record PodToleration(String key, String operator, String value, String effect) {
}
