package io.gpumeter.collector.latency;

/** The per-request latencies slo-service keeps, and whether a histogram of one counts requests or tokens. */
public enum Latency {
    /** Time to first token: one observation per request. */
    TTFT(true),
    /** Inter-token latency: one observation per generated token after the first. */
    ITL(false),
    /** End-to-end request latency: one observation per finished request. */
    E2E(true);

    private final boolean perRequest;

    Latency(boolean perRequest) {
        this.perRequest = perRequest;
    }

    /** Whether each observation is one request (TTFT, E2E), so the histogram's count is a request count. */
    public boolean perRequest() {
        return perRequest;
    }
}
