package io.gpumeter.slo.domain;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * One pod's inference-engine cache gauges at an instant; a gauge is null when the pod did not report it.
 *
 * @param kvCacheUsage       the share of the KV cache in use, 0 to 1
 * @param prefixCacheHitRate the share of queried prompt tokens found in the prefix cache, 0 to 1
 * @param generationTokensTotal the value of the pod's cumulative generation-token counter (vLLM's
 *                              {@code vllm:generation_tokens_total}) at {@code ts}
 */
public record EngineGaugeLine(String service, String namespace, String pod, Instant ts, Double kvCacheUsage,
                              Double prefixCacheHitRate, Double generationTokensTotal) {

    /** The start of the minute the reading belongs to. */
    public Instant minute() {
        return ts.truncatedTo(ChronoUnit.MINUTES);
    }
}
