package io.gpumeter.collector.usage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

import static io.gpumeter.collector.usage.ExpfmtText.isBlank;
import static io.gpumeter.collector.usage.ExpfmtText.isMetricName;
import static io.gpumeter.collector.usage.ExpfmtText.isNameChar;
import static io.gpumeter.collector.usage.ExpfmtText.isNameStart;
import static io.gpumeter.collector.usage.ExpfmtText.shown;

/** A strict parser of the Prometheus text format 0.0.4 by the rules of Go's expfmt, refusing repeated series. */
public final class PrometheusTextParser {

    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");
    private static final Map<String, String> NO_LABELS = Collections.unmodifiableSortedMap(new TreeMap<>());

    private final int maxLine;

    /** With lines limited to 64 KiB. */
    public PrometheusTextParser() {
        this(LineReader.DEFAULT_MAX_LINE);
    }

    public PrometheusTextParser(int maxLineChars) {
        if (maxLineChars < 1) {
            throw new IllegalArgumentException("maxLineChars must be positive");
        }
        this.maxLine = maxLineChars;
    }

    /** Every sample of the body in order; an empty body has none. */
    public List<Sample> parse(String body) {
        return new Run(new LineReader(body, maxLine)).parse();
    }

    private record SeriesKey(String name, Map<String, String> labels) {
    }

    /** The state of one parse. */
    private static final class Run {
        private final LineReader lines;
        private final List<Sample> samples = new ArrayList<>();
        private final Map<String, String> types = new HashMap<>();
        private final Set<String> helps = new HashSet<>();
        private final Set<String> sampled = new HashSet<>();
        private final Map<SeriesKey, Integer> series = new HashMap<>();
        private final LabelSetReader labelSets = new LabelSetReader();
        private String line;

        Run(LineReader lines) {
            this.lines = lines;
        }

        List<Sample> parse() {
            while (lines.next()) {
                line = lines.line();
                int i = skipBlank(0);
                if (i == line.length()) {
                    continue;
                }
                if (line.charAt(i) == '#') {
                    comment(i + 1);
                } else {
                    sample(i);
                }
            }
            return Collections.unmodifiableList(samples);
        }

        private void comment(int from) {
            int i = skipBlank(from);
            int end = tokenEnd(i);
            String word = line.substring(i, end);
            if (!word.equals("HELP") && !word.equals("TYPE")) {
                return;
            }
            i = skipBlank(end);
            end = tokenEnd(i);
            String name = line.substring(i, end);
            if (name.isEmpty()) {
                throw fail(word + " line without a metric name");
            }
            if (!isMetricName(name)) {
                throw fail("invalid metric name " + shown(name) + " in " + word + " line");
            }
            if (word.equals("HELP")) {
                help(name, skipBlank(end));
            } else {
                type(name, skipBlank(end));
            }
        }

        private void help(String name, int from) {
            for (int i = from; i < line.length(); i++) {
                if (line.charAt(i) == '\\') {
                    char next = i + 1 < line.length() ? line.charAt(i + 1) : 0;
                    if (next != 'n' && next != '\\') {
                        throw fail("invalid escape sequence in HELP text of " + name
                                + ": only \\\\ and \\n are allowed");
                    }
                    i++;
                }
            }
            if (!helps.add(name)) {
                throw fail("second HELP line for " + name);
            }
        }

        private void type(String name, int from) {
            int end = tokenEnd(from);
            String type = line.substring(from, end);
            if (type.isEmpty()) {
                throw fail("TYPE line for " + name + " without a type");
            }
            if (!TYPES.contains(type)) {
                throw fail("unknown type " + shown(type) + " for " + name + "; expected one of counter, gauge,"
                        + " histogram, summary, untyped");
            }
            if (skipBlank(end) != line.length()) {
                throw fail("unexpected text after the type of " + name);
            }
            if (types.containsKey(name)) {
                throw fail("second TYPE line for " + name);
            }
            if (sampled.contains(name)) {
                throw fail("TYPE line for " + name + " comes after its samples");
            }
            types.put(name, type);
        }

        private void sample(int start) {
            if (!isNameStart(line.charAt(start))) {
                throw fail("a sample must start with a metric name, found " + shown(line.charAt(start)));
            }
            int i = start + 1;
            while (i < line.length() && isNameChar(line.charAt(i))) {
                i++;
            }
            String name = line.substring(start, i);
            if (i < line.length() && !isBlank(line.charAt(i)) && line.charAt(i) != '{') {
                throw fail("unexpected " + shown(line.charAt(i)) + " in metric name " + shown(line.substring(start,
                        Math.min(line.length(), i + 1))));
            }
            i = skipBlank(i);
            Map<String, String> labels = NO_LABELS;
            if (i < line.length() && line.charAt(i) == '{') {
                int close = labelSets.end(line, i, name, lines.number());
                labels = labelSets.read(line, i, close, name, lines.number());
                i = skipBlank(close + 1);
            }
            if (i == line.length()) {
                throw fail("sample " + name + " has no value");
            }
            int end = tokenEnd(i);
            String token = line.substring(i, end);
            Double value = Decimals.sampleValue(token);
            if (value == null) {
                throw fail("value " + shown(token) + " of " + name + " is not a number");
            }
            i = skipBlank(end);
            OptionalLong timestamp = OptionalLong.empty();
            if (i < line.length()) {
                end = tokenEnd(i);
                token = line.substring(i, end);
                Long millis = Decimals.integer(token);
                if (millis == null) {
                    throw fail("timestamp " + shown(token) + " of " + name + " is not an integer of milliseconds");
                }
                timestamp = OptionalLong.of(millis);
                if (skipBlank(end) != line.length()) {
                    throw fail("unexpected text after the timestamp of " + name);
                }
            }
            // families need not be contiguous: dcgm-exporter's documented MIG output interleaves them
            sampled.add(family(name));
            Integer first = series.putIfAbsent(new SeriesKey(name, labels), lines.number());
            if (first != null) {
                throw fail("series " + shown(name + labels) + " already appeared on line " + first);
            }
            samples.add(new Sample(name, labels, value, timestamp));
        }

        private String family(String name) {
            if (types.containsKey(name)) {
                return name;
            }
            for (String suffix : new String[] {"_bucket", "_sum", "_count"}) {
                if (name.endsWith(suffix)) {
                    String type = types.get(name.substring(0, name.length() - suffix.length()));
                    if ("histogram".equals(type) || "summary".equals(type) && !suffix.equals("_bucket")) {
                        return name.substring(0, name.length() - suffix.length());
                    }
                }
            }
            return name;
        }

        private int skipBlank(int i) {
            while (i < line.length() && isBlank(line.charAt(i))) {
                i++;
            }
            return i;
        }

        private int tokenEnd(int i) {
            while (i < line.length() && !isBlank(line.charAt(i))) {
                i++;
            }
            return i;
        }

        private UsageParseException fail(String reason) {
            return new UsageParseException(lines.number(), reason);
        }
    }
}
