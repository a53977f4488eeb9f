package io.gpumeter.collector.latency;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One pod's cache gauges at a scrape as slo-service's {@code POST /api/v1/ingest/engine-gauges} takes them, one JSON
 * object a line; a gauge the server did not say anything about is left out.
 *
 * @param ts                 RFC 3339
 * @param kvCacheUsage       the share of the KV cache in use, 0 to 1
 * @param prefixCacheHitRate the share of queried prompt tokens found in the prefix cache, 0 to 1
 * @param generationTokensTotal the tokens the model's engines in the pod generated since they started (their
 *                              {@code vllm:generation_tokens_total} summed), as a counter: slo-service reads its rate
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EngineGaugeRecord(String service, String namespace, String pod, String ts, Double kvCacheUsage,
                                Double prefixCacheHitRate, Double generationTokensTotal) {
}
