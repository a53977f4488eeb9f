package io.gpumeter.slo.domain;

import java.time.Instant;

/**
 * One pod's stored minute of one service, as an SLO reads it: for a latency SLI its compressed histogram of that SLI
 * (requests = the histogram's count), for AVAILABILITY its requests and failures ({@code histogram} null).
 */
public record PodMinute(String service, String namespace, String pod, Instant minute, long requests, long failed,
                        byte[] histogram) {

    /** namespace/pod, the key a pod is known by across services. */
    public String podKey() {
        return namespace + "/" + pod;
    }
}
