package io.gpumeter.launcher.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.launcher.simulator.GpuPool;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.simulator.SimPod;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The inference services, each served by a pod held through the whole usage span — the first by a HAMi model server
 * of acme-inference, the second by another steady pod when the history has one — and their own signals: a record per
 * request ({@value #REQUESTS_PER_MINUTE} a minute) with its TTFT,
 * inter-token latency and end-to-end time, vLLM's engine gauges once a minute, and a TTFT SLO per service. The first
 * service's TTFT is {@value #JITTER_TTFT_MS} ms through the jitter episode; a service whose host holds it back is
 * slow too.
 */
final class DemoInference {

    static final int JITTER_TTFT_MS = 950;
    static final int REQUESTS_PER_MINUTE = 12;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DemoSignals signals;
    private final SimPod chatPod;
    private final SimPod secondPod;

    DemoInference(DemoSignals signals) {
        this.signals = signals;
        this.chatPod = steady(p -> p.pool() == GpuPool.HAMI && p.namespace().equals("acme-inference"))
                .orElseThrow(() -> new IllegalStateException("the history has no model server running at its end"));
        this.secondPod = steady(p -> p.namespace().equals("globex-llm") && p != chatPod)
                .or(() -> steady(p -> p != chatPod && p.pool() == GpuPool.HAMI))
                .or(() -> steady(p -> p != chatPod)).orElse(null);
    }

    /** A pod held through the whole usage span, the earliest scheduled first. */
    private Optional<SimPod> steady(Predicate<SimPod> which) {
        Plan plan = signals.plan();
        Instant last = signals.usageTo().minusSeconds(1);
        return plan.pods().stream().filter(p -> !p.grants().isEmpty() && p.holdsAt(signals.usageFrom()) && p.holdsAt(last))
                .filter(which).min(Comparator.comparing(SimPod::scheduledAt).thenComparing(SimPod::uid));
    }

    /** The pod of the first service, on the card it comes to share with the noisy neighbour. */
    SimPod chatPod() {
        return chatPod;
    }

    /** The first service always, the second when the history has a second steady pod. */
    List<DemoSignals.InferenceService> services() {
        List<DemoSignals.InferenceService> out = new ArrayList<>();
        out.add(new DemoSignals.InferenceService(DemoSignals.CHAT_SERVICE, chatPod, DemoSignals.CHAT_THRESHOLD_MS));
        if (secondPod != null) {
            out.add(new DemoSignals.InferenceService(DemoSignals.SECOND_SERVICE, secondPod,
                    DemoSignals.SECOND_THRESHOLD_MS));
        }
        return out;
    }

    /** The TTFT of one request of a service; the first service's is far slower during the jitter episode. */
    double ttftMs(DemoSignals.InferenceService service, Instant minute, int request) {
        double n = signals.noise(service.name() + "/" + request, minute);
        boolean jitter = service.name().equals(DemoSignals.CHAT_SERVICE) && !minute.isBefore(signals.jitterStart())
                && minute.isBefore(signals.jitterEnd());
        if (jitter) {
            return JITTER_TTFT_MS + Math.round(n * 150);
        }
        if (signals.host().slowsService(service.pod(), minute)) {
            return Math.round(service.thresholdMs() * (2.6 + 0.4 * n));
        }
        return Math.round(service.thresholdMs() * (0.35 + 0.3 * n));
    }

    /** The request records of every service, one NDJSON body per service. */
    List<DemoSignals.Push> latencyPushes() {
        List<DemoSignals.Push> out = new ArrayList<>();
        for (DemoSignals.InferenceService s : signals.services()) {
            StringBuilder body = new StringBuilder();
            for (Instant minute : signals.minutes()) {
                for (int r = 0; r < REQUESTS_PER_MINUTE; r++) {
                    double ttft = ttftMs(s, minute, r);
                    double itl = Math.round(18 + 14 * signals.noise(s.name() + "/itl/" + r, minute));
                    ObjectNode record = served(s, minute.plusSeconds(r * 60L / REQUESTS_PER_MINUTE + 1));
                    number(record, "ttftMs", ttft);
                    number(record, "itlMs", itl);
                    number(record, "e2eMs", ttft + 200 * itl);
                    body.append(record.put("ok", true)).append('\n');
                }
            }
            out.add(new DemoSignals.Push("slo", "/api/v1/ingest/latency", "application/x-ndjson", body.toString()));
        }
        return out;
    }

    /** vLLM's KV-cache usage and prefix-cache hit rate of each service's pod, once a minute. */
    List<DemoSignals.Push> engineGaugePushes() {
        List<DemoSignals.Push> out = new ArrayList<>();
        for (DemoSignals.InferenceService s : signals.services()) {
            StringBuilder body = new StringBuilder();
            for (Instant minute : signals.minutes()) {
                ObjectNode gauges = served(s, minute.plusSeconds(30));
                number(gauges, "kvCacheUsage", DemoCards.round(0.35 + 0.25 * signals.noise(s.name() + "/kv", minute)));
                number(gauges, "prefixCacheHitRate",
                        DemoCards.round(0.30 + 0.3 * signals.noise(s.name() + "/prefix", minute)));
                body.append(gauges).append('\n');
            }
            out.add(new DemoSignals.Push("slo", "/api/v1/ingest/engine-gauges", "application/x-ndjson",
                    body.toString()));
        }
        return out;
    }

    /**
     * A TTFT SLO per service, in its pod's namespace (a service is known by its namespace and name): p99 under its
     * threshold in 99 % of minutes over 30 days.
     */
    List<DemoSignals.Push> sloPushes() {
        List<DemoSignals.Push> out = new ArrayList<>();
        for (DemoSignals.InferenceService s : signals.services()) {
            ObjectNode slo = JSON.createObjectNode().put("name", s.name() + "-ttft");
            slo.putObject("selector").put("service", s.name()).put("namespace", s.pod().namespace());
            slo.put("sli", "TTFT").putObject("objective").put("percentile", 99).put("thresholdMs", s.thresholdMs())
                    .put("per", "MINUTE");
            slo.put("target", 0.99).put("window", "P30D");
            out.add(new DemoSignals.Push("slo", "/api/v1/slos", "application/json", slo.toString()));
        }
        return out;
    }

    /** The service, namespace and pod a record or gauge is of, and its time. */
    private static ObjectNode served(DemoSignals.InferenceService s, Instant ts) {
        return JSON.createObjectNode().put("service", s.name()).put("namespace", s.pod().namespace())
                .put("pod", s.pod().name()).put("ts", Rfc3339.format(ts));
    }

    /** A whole number without a decimal point, as the services' own exporters write one. */
    private static void number(ObjectNode o, String field, double v) {
        if (v == Math.rint(v)) {
            o.put(field, (long) v);
        } else {
            o.put(field, v);
        }
    }
}
