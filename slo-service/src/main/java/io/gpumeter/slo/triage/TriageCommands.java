package io.gpumeter.slo.triage;

import io.gpumeter.common.shell.ShellWords;
import io.gpumeter.slo.acceptance.CurlLine;

import java.time.Instant;
import java.util.List;

/**
 * The command lines a triage's evidence gives, for a person to see the same fact: slo-service's own reads as curl
 * lines ({@code $GPUMETER_SLO}, {@code $GPUMETER_TOKEN}), Prometheus ranges through promtool
 * ({@code $PROMETHEUS_URL}) over the series dcgm-exporter and the engines export, and kubectl. Names come from the
 * cluster, so every word is single-quoted and every PromQL label value escaped: a line runs its one command.
 */
public final class TriageCommands {

    /** The variable naming the Prometheus a person queries. */
    public static final String PROMETHEUS = "PROMETHEUS_URL";

    private final String requestsCounter;
    private final String namespaceLabel;
    private final String serviceLabel;

    /**
     * @param requestsCounter a counter of the engine's requests, e.g. {@code vllm:e2e_request_latency_seconds_count}
     * @param namespaceLabel  the label carrying the pod's namespace
     * @param serviceLabel    the label carrying the service
     */
    public TriageCommands(String requestsCounter, String namespaceLabel, String serviceLabel) {
        this.requestsCounter = requestsCounter;
        this.namespaceLabel = namespaceLabel;
        this.serviceLabel = serviceLabel;
    }

    /** A GET of slo-service's own {@code path} with the query's name/value pairs. */
    public String slo(String path, String... params) {
        return CurlLine.slo(path, params);
    }

    /** The service's requests per minute over [from, to], as its engines count them. */
    public String requestRate(String namespace, String service, Instant from, Instant to) {
        return range("sum(increase(" + requestsCounter + "{" + label(namespaceLabel, namespace) + ","
                + label(serviceLabel, service) + "}[1m]))", from, to);
    }

    /**
     * A pod's own series of a DCGM profiling field ({@code DRAM_ACTIVE}, {@code SM_ACTIVE}) on one card over
     * [from, to], as dcgm-exporter labels it in Kubernetes mode.
     */
    public String activity(String field, String gpuUuid, String namespace, String pod, Instant from, Instant to) {
        return range("DCGM_FI_PROF_" + field + "{" + label("UUID", gpuUuid) + "," + label("namespace", namespace) + ","
                + label("pod", pod) + "}", from, to);
    }

    /** Where pods run now: their nodes, IPs and ages. */
    public String pods(String namespace, List<String> pods) {
        StringBuilder line = new StringBuilder("kubectl get pod -n ").append(ShellWords.quote(namespace));
        pods.forEach(p -> line.append(' ').append(ShellWords.quote(p)));
        return line.append(" -o wide").toString();
    }

    private static String range(String expr, Instant from, Instant to) {
        return "promtool query range --start=" + from + " --end=" + to + " --step=1m " + ShellWords.variable(PROMETHEUS)
                + " " + ShellWords.quote(expr);
    }

    /** A PromQL matcher; the value is a double-quoted PromQL string, its backslashes, quotes and line breaks escaped. */
    static String label(String name, String value) {
        String escaped = value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\r", "\\r");
        return name + "=\"" + escaped + "\"";
    }
}
