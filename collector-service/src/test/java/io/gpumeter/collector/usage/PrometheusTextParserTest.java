package io.gpumeter.collector.usage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class PrometheusTextParserTest {

    private final PrometheusTextParser parser = new PrometheusTextParser();

    private static Sample s(String name, double value, String... labels) {
        return new Sample(name, labels(labels), value);
    }

    private static Sample s(String name, double value, long timestamp, String... labels) {
        return new Sample(name, labels(labels), value, OptionalLong.of(timestamp));
    }

    private static Map<String, String> labels(String... pairs) {
        Map<String, String> map = new TreeMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }

    static Stream<Arguments> valid() {
        return Stream.of(
                arguments("minimal sample", "m 1\n", List.of(s("m", 1))),
                arguments("labels come back sorted by name", "m{b=\"2\",a=\"1\"} 3\n", List.of(s("m", 3, "a", "1", "b", "2"))),
                arguments("trailing comma in the label set", "m{a=\"1\",} 3\n", List.of(s("m", 3, "a", "1"))),
                arguments("empty label set", "m{} 3\n", List.of(s("m", 3))),
                arguments("empty label value is kept", "m{pod_uid=\"\"} 3\n", List.of(s("m", 3, "pod_uid", ""))),
                arguments("escaped backslash, quote and newline", "m{a=\"C:\\\\DIR\\\\\",b=\"say \\\"hi\\\"\",c=\"x\\ny\"} 1\n",
                        List.of(s("m", 1, "a", "C:\\DIR\\", "b", "say \"hi\"", "c", "x\ny"))),
                arguments("NaN", "m NaN\n", List.of(s("m", Double.NaN))),
                arguments("+Inf and -Inf", "a +Inf\nb -Inf\n", List.of(s("a", Double.POSITIVE_INFINITY), s("b", Double.NEGATIVE_INFINITY))),
                arguments("Inf without sign, any case (as Go's ParseFloat)", "a Inf\nb inf\nc -infinity\nd nan\n",
                        List.of(s("a", Double.POSITIVE_INFINITY), s("b", Double.POSITIVE_INFINITY),
                                s("c", Double.NEGATIVE_INFINITY), s("d", Double.NaN))),
                arguments("exponent floats", "a 1.5e+3\nb -2E-2\nc 1e3\nd 2.109867008e+09\n",
                        List.of(s("a", 1500), s("b", -0.02), s("c", 1000), s("d", 2.109867008e9))),
                arguments("leading and trailing dot", "a .5\nb 5.\nc -0.0\n", List.of(s("a", 0.5), s("b", 5), s("c", -0.0))),
                arguments("timestamp in milliseconds", "m 1027 1395066363000\n", List.of(s("m", 1027, 1395066363000L))),
                arguments("timestamp before the epoch", "something_weird{problem=\"division by zero\"} +Inf -3982045\n",
                        List.of(s("something_weird", Double.POSITIVE_INFINITY, -3982045L, "problem", "division by zero"))),
                arguments("blank lines and plain comments are skipped", "\n# a comment\n   \nm 1\n\n# another\n", List.of(s("m", 1))),
                arguments("HELP and TYPE before samples", "# HELP m Some help.\n# TYPE m gauge\nm{a=\"1\"} 2\nm{a=\"2\"} 3\n",
                        List.of(s("m", 2, "a", "1"), s("m", 3, "a", "2"))),
                arguments("tabs and runs of blanks separate tokens", "m\t{a=\"1\"}\t 2 \t 3\t\n", List.of(s("m", 2, 3L, "a", "1"))),
                arguments("blanks inside the label set", "m{ a = \"1\" , b=\"2\" , } 3\n", List.of(s("m", 3, "a", "1", "b", "2"))),
                arguments("value right after the closing brace", "m{a=\"1\"}3\n", List.of(s("m", 3, "a", "1"))),
                arguments("missing final newline", "a 1\nb 2", List.of(s("a", 1), s("b", 2))),
                arguments("CRLF line ends", "# TYPE a gauge\r\na 1\r\nb 2\r\n", List.of(s("a", 1), s("b", 2))),
                arguments("colons in a recording-rule name", "job:requests:rate5m 2\n", List.of(s("job:requests:rate5m", 2))),
                arguments("braces, hash and comma inside a label value", "m{a=\"}{#,=\"} 1\n", List.of(s("m", 1, "a", "}{#,="))),
                arguments("histogram family by TYPE", "# TYPE h histogram\nh_bucket{le=\"0.1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 0.3\nh_count 2\n",
                        List.of(s("h_bucket", 1, "le", "0.1"), s("h_bucket", 2, "le", "+Inf"), s("h_sum", 0.3), s("h_count", 2))),
                arguments("interleaved families, as dcgm-exporter's MIG docs show",
                        "a{gpu=\"0\"} 1\nb{gpu=\"0\"} 2\n\na{gpu=\"0\",GPU_I_ID=\"13\"} 3\n",
                        List.of(s("a", 1, "gpu", "0"), s("b", 2, "gpu", "0"), s("a", 3, "GPU_I_ID", "13", "gpu", "0"))),
                arguments("HELP text with its two escapes", "# HELP m a\\\\b\\nc\nm 1\n", List.of(s("m", 1))),
                arguments("HELP without text", "# HELP m\nm 1\n", List.of(s("m", 1))),
                arguments("lower-case help is a plain comment", "# help m \\t anything\n# type m nonsense\nm 1\n", List.of(s("m", 1))),
                arguments("leading blanks before a sample", "   m 1\n", List.of(s("m", 1))),
                arguments("non-ASCII label value", "m{a=\"ñ✓ 日本\"} 1\n", List.of(s("m", 1, "a", "ñ✓ 日本"))),
                arguments("label names with underscores and digits", "m{_a1=\"x\",__meta=\"y\"} 1\n", List.of(s("m", 1, "__meta", "y", "_a1", "x"))),
                arguments("same name, different labels", "m{a=\"1\"} 1\nm{a=\"2\"} 2\nm 3\n",
                        List.of(s("m", 1, "a", "1"), s("m", 2, "a", "2"), s("m", 3))),
                arguments("byte-order mark before the first line", "\uFEFFm 1\n", List.of(s("m", 1))),
                arguments("empty body", "", List.of()),
                arguments("only comments", "# HELP m x\n# TYPE m gauge\n", List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void parses(String name, String body, List<Sample> expected) {
        assertEquals(expected, parser.parse(body));
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                arguments("escape other than \\\\ \\\" \\n", "m{a=\"x\\ty\"} 1\n", 1, "invalid escape sequence \\t"),
                arguments("backslash escaping the closing quote", "m{a=\"x\\\"} 1\n", 1, "is not closed by '\"'"),
                arguments("label set not closed", "m{a=\"1\" 1\n", 1, "is not closed by '}'"),
                arguments("label value not closed", "m{a=\"1} 1\n", 1, "is not closed by '\"'"),
                arguments("label value without quotes", "m{a=1} 1\n", 1, "must be in double quotes"),
                arguments("label value in single quotes", "m{a='1'} 1\n", 1, "must be in double quotes"),
                arguments("no '=' after the label name", "m{a\"1\"} 1\n", 1, "expected '=' after label name a"),
                arguments("label name starting with a digit", "m{1a=\"x\"} 1\n", 1, "expected a label name"),
                arguments("label name with a dash", "m{a-b=\"x\"} 1\n", 1, "expected '=' after label name a"),
                arguments("label name with a colon", "m{a:b=\"x\"} 1\n", 1, "expected '=' after label name a"),
                arguments("reserved __name__ label", "m{__name__=\"m\"} 1\n", 1, "__name__ is reserved"),
                arguments("label given twice", "m{a=\"1\",a=\"2\"} 1\n", 1, "label a appears twice"),
                arguments("two commas in a row", "m{a=\"1\",,b=\"2\"} 1\n", 1, "expected a label name"),
                arguments("leading comma", "m{,a=\"1\"} 1\n", 1, "expected a label name"),
                arguments("missing comma between labels", "m{a=\"1\" b=\"2\"} 1\n", 1, "expected ',' or '}'"),
                arguments("no value", "m\n", 1, "has no value"),
                arguments("no value after the labels", "m{a=\"1\"}   \n", 1, "has no value"),
                arguments("word for a value", "m abc\n", 1, "value \"abc\" of m is not a number"),
                arguments("hexadecimal float", "m 0x1p3\n", 1, "is not a number"),
                arguments("Java's double suffix", "m 1d\n", 1, "is not a number"),
                arguments("digit separators", "m 1_000\n", 1, "is not a number"),
                arguments("sign alone", "m +\n", 1, "is not a number"),
                arguments("two dots", "m 1.2.3\n", 1, "is not a number"),
                arguments("exponent without digits", "m 1e\n", 1, "is not a number"),
                arguments("overflowing value", "m 1e400\n", 1, "is not a number"),
                arguments("fractional timestamp", "m 1 1.5\n", 1, "is not an integer of milliseconds"),
                arguments("timestamp beyond a long", "m 1 99999999999999999999\n", 1, "is not an integer of milliseconds"),
                arguments("NaN timestamp", "m 1 NaN\n", 1, "is not an integer of milliseconds"),
                arguments("text after the timestamp", "m 1 2 3\n", 1, "unexpected text after the timestamp"),
                arguments("metric name starting with a digit", "1m 1\n", 1, "must start with a metric name"),
                arguments("dash in the metric name", "m-x 1\n", 1, "unexpected '-' in metric name"),
                arguments("dotted metric name (only in the UTF-8 formats)", "m.x 1\n", 1, "unexpected '.' in metric name"),
                arguments("quoted metric name (only in the UTF-8 formats)", "{\"m.x\"} 1\n", 1, "must start with a metric name"),
                arguments("label set without a metric name", "{a=\"1\"} 1\n", 1, "must start with a metric name"),
                arguments("same series twice", "m{a=\"1\",b=\"2\"} 1\nx 0\nm{b=\"2\",a=\"1\"} 2\n", 3, "already appeared on line 1"),
                arguments("same series twice with different timestamps", "m 1 1000\nm 2 2000\n", 2, "already appeared on line 1"),
                arguments("second TYPE line", "# TYPE m gauge\n# TYPE m counter\n", 2, "second TYPE line for m"),
                arguments("TYPE after the samples", "m 1\n# TYPE m gauge\n", 2, "comes after its samples"),
                arguments("TYPE after a histogram's bucket", "# HELP h x\nh_bucket{le=\"1\"} 1\n# TYPE h_bucket counter\n", 3, "comes after its samples"),
                arguments("unknown type", "# TYPE m gaugee\n", 1, "unknown type \"gaugee\""),
                arguments("TYPE without a type", "# TYPE m\n", 1, "without a type"),
                arguments("text after the type", "# TYPE m gauge extra\n", 1, "unexpected text after the type"),
                arguments("HELP without a metric name", "# HELP\n", 1, "HELP line without a metric name"),
                arguments("invalid name in TYPE", "# TYPE 1m gauge\n", 1, "invalid metric name \"1m\""),
                arguments("second HELP line", "# HELP m a\n# HELP m b\n", 2, "second HELP line for m"),
                arguments("escape other than \\\\ \\n in HELP", "# HELP m a\\tb\n", 1, "invalid escape sequence in HELP"),
                arguments("backslash ending the HELP text", "# HELP m a\\\n", 1, "invalid escape sequence in HELP"),
                arguments("carriage return inside a line", "m 1\rn 2\n", 1, "carriage return"),
                arguments("NUL after the labels", "m{a=\"1\"}\u0000 1\n", 1, "is not a number"),
                arguments("the failing line is named", "m 1\n\n# fine\nm{ 2\n", 4, "label set of m is not closed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refuses(String name, String body, int line, String reason) {
        UsageParseException e = assertThrows(UsageParseException.class, () -> parser.parse(body));
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.reason().contains(reason), e.getMessage());
        assertTrue(e.getMessage().startsWith("line " + line + ": "), e.getMessage());
    }

    static Stream<Arguments> lengths() {
        String prefix = "m{a=\"";
        String suffix = "\"} 1";
        return Stream.of(
                arguments("a line of exactly the limit", prefix + "x".repeat(100 - prefix.length() - suffix.length()) + suffix, true),
                arguments("one character over the limit", prefix + "x".repeat(101 - prefix.length() - suffix.length()) + suffix, false),
                arguments("a comment over the limit", "# " + "x".repeat(200), false),
                arguments("a blank line over the limit", " ".repeat(101), false),
                arguments("CR of a CRLF does not count", prefix + "x".repeat(100 - prefix.length() - suffix.length()) + suffix + "\r\n", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lengths")
    void limitsLineLength(String name, String body, boolean accepted) {
        PrometheusTextParser small = new PrometheusTextParser(100);
        if (accepted) {
            assertEquals(1, small.parse(body).size());
        } else {
            UsageParseException e = assertThrows(UsageParseException.class, () -> small.parse("ok 1\n" + body));
            assertEquals(2, e.line());
            assertTrue(e.reason().contains("longer than 100 characters"), e.getMessage());
        }
    }

    @Test
    void refusesAGiantLineAtTheDefaultLimit() {
        String giant = "m{a=\"" + "x".repeat(64 * 1024) + "\"} 1\n";
        UsageParseException e = assertThrows(UsageParseException.class, () -> parser.parse("a 1\n" + giant));
        assertEquals(2, e.line());
        assertTrue(e.reason().contains("longer than 65536 characters"), e.getMessage());
    }

    @Test
    void acceptsManyLinesAndLongLabelValuesUnderTheLimit() {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 50_000; i++) {
            body.append("m{gpu=\"").append(i).append("\",note=\"").append("y".repeat(200)).append("\"} ").append(i).append('\n');
        }
        List<Sample> samples = parser.parse(body.toString());
        assertEquals(50_000, samples.size());
        assertEquals("49999", samples.get(49_999).labels().get("gpu"));
    }

    @Test
    void readsTheA100MigScrape() {
        List<Sample> samples = parser.parse(Fixtures.read("dcgm-exporter-scrape-a100-mig-1g5gb.prom"));
        assertEquals(21, samples.size());
        Sample migDram = samples.get(20);
        assertEquals("DCGM_FI_PROF_DRAM_ACTIVE", migDram.name());
        assertEquals(0.800339, migDram.value());
        assertEquals(Map.of("gpu", "0", "UUID", "GPU-34319582-d595-d1c7-d1d2-179bcfa61660", "device", "nvidia0",
                "GPU_I_PROFILE", "1g.5gb", "GPU_I_ID", "13", "Hostname", "ub20-a100-k8s"), migDram.labels());
        assertEquals(List.of("DCGM_FI_DEV_SM_CLOCK"), samples.stream().limit(1).map(Sample::name).toList());
    }

    @Test
    void readsTheKubernetesScrapeWithHelpTypeAndEmptyLabels() {
        List<Sample> samples = parser.parse(Fixtures.read("dcgm-exporter-scrape-l40s-k8s-pod-labels.prom"));
        assertEquals(32, samples.size());
        Sample xid = samples.stream().filter(s -> s.name().equals("DCGM_FI_DEV_XID_ERRORS")).findFirst().orElseThrow();
        assertEquals("No Error", xid.labels().get("err_msg"));
        assertEquals("", xid.labels().get("pod_uid"));
        assertEquals(null, xid.label("pod_uid"));
    }

    @Test
    void readsBothHamiMonitorScrapes() {
        assertEquals(9, parser.parse(Fixtures.read("hami-vgpu-monitor-9394-legacy-scrape.prom")).size());
        assertEquals(13, parser.parse(Fixtures.read("hami-vgpu-monitor-9394-scrape.prom")).size());
    }

    @Test
    void labelsAreUnmodifiable() {
        Sample sample = parser.parse("m{a=\"1\"} 1\n").get(0);
        assertThrows(UnsupportedOperationException.class, () -> sample.labels().put("b", "2"));
    }

    @Test
    void aSampleBuiltByHandCopiesItsLabels() {
        Map<String, String> mutable = new TreeMap<>(Map.of("a", "1"));
        Sample sample = new Sample("m", mutable, 1);
        mutable.put("b", "2");
        assertEquals(Map.of("a", "1"), sample.labels());
    }
}
