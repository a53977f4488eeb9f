package io.gpumeter.collector.latency;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One request as slo-service's {@code POST /api/v1/ingest/latency} takes it, one JSON object a line.
 *
 * @param ts RFC 3339
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LatencyRecord(String service, String namespace, String pod, String ts, Double ttftMs, Double itlMs,
                            Double e2eMs, boolean ok) {
}
