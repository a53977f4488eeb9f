package io.gpumeter.slo.triage;

import io.gpumeter.common.shell.ShellWords;
import io.gpumeter.slo.acceptance.CurlLine;

import java.time.Instant;
import java.util.List;

/**
 * The command lines a triage's evidence gives, for a person to see the same fact: slo-service's own reads as curl
 * lines ({@code $GPUMETER_SLO}, {@code $GPUMETER_TOKEN}) and the ledger's ({@code $GPUMETER_LEDGER}), Prometheus
 * ranges through promtool ({@code $PROMETHEUS_URL}) over the series dcgm-exporter, the engines, the kubelet's cAdvisor
 * and node-exporter export, and kubectl. Names come from the cluster, so every word is single-quoted and every PromQL
 * label value escaped: a line runs its one command.
 */
public final class TriageCommands {

    /** The variable naming the Prometheus a person queries. */
    public static final String PROMETHEUS = "PROMETHEUS_URL";
    /** The variable naming the ledger-service a person reads. */
    public static final String LEDGER = "GPUMETER_LEDGER";

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

    /**
     * A pod's containers' CFS periods throttled over periods run, per minute over [from, to], as the kubelet's cAdvisor
     * labels them (the pod's own cgroup, container "", left out).
     */
    public String cfsThrottling(String namespace, String pod, Instant from, Instant to) {
        String matchers = "{" + label("namespace", namespace) + "," + label("pod", pod) + ",container!=\"\"}";
        return range("sum(rate(container_cpu_cfs_throttled_periods_total" + matchers + "[1m])) / sum(rate("
                + "container_cpu_cfs_periods_total" + matchers + "[1m]))", from, to);
    }

    /** A pod's bytes received and sent per second over [from, to], as cAdvisor counts its sandbox's network. */
    public String networkBytes(String namespace, String pod, Instant from, Instant to) {
        String matchers = "{" + label("namespace", namespace) + "," + label("pod", pod) + "}";
        return range("sum(rate(container_network_receive_bytes_total" + matchers + "[1m])) + sum(rate("
                + "container_network_transmit_bytes_total" + matchers + "[1m]))", from, to);
    }

    /**
     * A node-exporter counter's per-second rate on one node over [from, to] (a pressure stall counter: seconds stalled
     * per second), its {@code instance} label naming the node with or without a port, as kube-prometheus-stack
     * relabels it.
     */
    public String nodeRate(String counter, String node, Instant from, Instant to) {
        return range("rate(" + counter + "{" + label("instance", "=~", regexQuoted(node) + "(:[0-9]+)?") + "}[1m])",
                from, to);
    }

    /** The ledger's minutes and episodes of a card's clocks-event reasons and violation counters over [from, to). */
    public String cardThrottling(String gpuUuid, Instant from, Instant to) {
        return "curl -sS -H " + ShellWords.quote("Authorization: Bearer ") + ShellWords.variable("GPUMETER_TOKEN") + " "
                + ShellWords.variable(LEDGER) + ShellWords.quote("/api/v1/gpus/" + encode(gpuUuid) + "/throttling?from="
                + encode(from.toString()) + "&to=" + encode(to.toString()));
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
        return label(name, "=", value);
    }

    private static String label(String name, String op, String value) {
        String escaped = value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\r", "\\r");
        return name + op + "\"" + escaped + "\"";
    }

    /** A name matched literally inside a regular expression: each of RE2's special characters escaped. */
    static String regexQuoted(String literal) {
        StringBuilder out = new StringBuilder();
        for (char c : literal.toCharArray()) {
            if ("\\.+*?()|[]{}^$".indexOf(c) >= 0) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }

    /** Percent-encoding, a space as %20. */
    private static String encode(String value) {
        return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }
}
