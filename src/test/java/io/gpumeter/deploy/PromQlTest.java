package io.gpumeter.deploy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The metric-name extractor the dashboard and rule checks rely on. */
class PromQlTest {

    static Stream<Arguments> expressions() {
        return Stream.of(
                Arguments.of("bare selector", "up", Set.of("up")),
                Arguments.of("matchers and a range", "rate(http_server_requests_seconds_count{job=~\"a|b\", uri!=\"/x\"}[5m])",
                        Set.of("http_server_requests_seconds_count")),
                Arguments.of("aggregation with by before the body", "sum by (namespace, pod) (DCGM_FI_DEV_FB_USED{pod!=\"\"})",
                        Set.of("DCGM_FI_DEV_FB_USED")),
                Arguments.of("aggregation with by after the body", "sum(DCGM_FI_DEV_FB_USED) by (Hostname)",
                        Set.of("DCGM_FI_DEV_FB_USED")),
                Arguments.of("recording-rule names with colons", "gpu:dcgm_sm_active:avg5m < 0.3 and on (UUID) gpu:dcgm_dram_active:avg5m",
                        Set.of("gpu:dcgm_sm_active:avg5m", "gpu:dcgm_dram_active:avg5m")),
                Arguments.of("label_replace strings are not metrics",
                        "label_replace(DCGM_FI_DEV_XID_ERRORS == 79, \"node\", \"$1\", \"Hostname\", \"(.*)\")",
                        Set.of("DCGM_FI_DEV_XID_ERRORS")),
                Arguments.of("offset, unless, numbers with exponents",
                        "(X_total != 0) unless (X_total offset 30m == X_total) / 1e9 + 0.5",
                        Set.of("X_total")),
                Arguments.of("group_left with labels", "a_metric * on (node) group_left (label) b_info",
                        Set.of("a_metric", "b_info")),
                Arguments.of("subquery", "max_over_time(rate(c_total[1m])[10m:1m])", Set.of("c_total")),
                Arguments.of("vector and scalar literals", "count(g_metric > 5) or vector(0)", Set.of("g_metric")),
                Arguments.of("topk parameter", "bottomk(20, gpu:gpumeter_activity:avg5m{pod!=\"\"})",
                        Set.of("gpu:gpumeter_activity:avg5m")),
                Arguments.of("keywords in upper case", "a_metric AND b_metric", Set.of("a_metric", "b_metric")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("expressions")
    void metricNames(String name, String expr, Set<String> expected) {
        assertEquals(expected, PromQl.metricNames(expr));
    }

    static Stream<Arguments> grafana() {
        return Stream.of(
                Arguments.of("rate interval", "rate(x_total[$__rate_interval])", "rate(x_total[5m])"),
                Arguments.of("range in seconds", "avg_over_time(y[$__range]) * $__range_s / 3600",
                        "avg_over_time(y[1h]) * 3600 / 3600"),
                Arguments.of("variable in a matcher stays text", "z{Hostname=~\"$node\"}", "z{Hostname=~\".*\"}"),
                Arguments.of("braced variable outside quotes is a number", "z * ${price}", "z * 1"),
                Arguments.of("plain variable outside quotes is a number", "z * $price", "z * 1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("grafana")
    void grafanaVariables(String name, String query, String expected) {
        assertEquals(expected, PromQl.fromGrafana(query));
    }
}
