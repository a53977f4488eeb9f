package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.Incident;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * OOM per tenant and node: at least {@code minCount} out-of-memory failures (container OOMKilled or CUDA out of
 * memory) of one namespace on one node started within the window.
 */
public final class GpuOomRule implements Rule {

    public static final String NAME = "GpuWorkloadOom";

    private final Duration window;
    private final int minCount;

    public GpuOomRule(Duration window, int minCount) {
        this.window = window;
        this.minCount = minCount;
    }

    @Override
    public String alertname() {
        return NAME;
    }

    @Override
    public Severity severity() {
        return Severity.WARNING;
    }

    @Override
    public String condition() {
        return "at least " + minCount + " OOM or CUDA OOM failures of one namespace on one node within " + window;
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        Instant since = snapshot.now().minus(window);
        Map<List<String>, Integer> counts = new TreeMap<>((a, b) -> String.join("\u0000", a).compareTo(String.join("\u0000", b)));
        for (Incident i : snapshot.incidents().orElse(List.<Incident>of())) {
            if (("oom".equals(i.cause()) || "cuda-oom".equals(i.cause())) && !i.startedAt().isBefore(since)) {
                counts.merge(List.of(nz(i.node()), nz(i.namespace())), 1, Integer::sum);
            }
        }
        Map<String, String> tenants = snapshot.tenantOfNamespace();
        List<Finding> found = new ArrayList<>();
        counts.forEach((key, count) -> {
            if (count >= minCount) {
                String node = key.get(0);
                String namespace = key.get(1);
                found.add(Finding.of(NAME, severity()).label(Finding.NODE, node).label(Finding.NAMESPACE, namespace)
                        .label(Finding.TENANT, tenants.get(namespace))
                        .describe(count + " out-of-memory failures in namespace " + namespace + " on node " + node
                                        + " within " + window,
                                "Containers were OOMKilled or CUDA ran out of GPU memory. Compare the pods' requests with "
                                        + "their framebuffer use and check same-card neighbours."));
            }
        });
        return RuleResult.judge(NAME, found, Map.of("failures", snapshot.incidents()));
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
