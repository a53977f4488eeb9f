package io.gpumeter.collector.usage;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import static io.gpumeter.collector.usage.ExpfmtText.isBlank;
import static io.gpumeter.collector.usage.ExpfmtText.isLabelChar;
import static io.gpumeter.collector.usage.ExpfmtText.isLabelStart;
import static io.gpumeter.collector.usage.ExpfmtText.shown;

/** Reads the {@code {name="value",…}} part of sample lines for one parse, each distinct text once. */
final class LabelSetReader {

    /** dcgm-exporter repeats one label set per GPU on every metric: parse each distinct set once. */
    private static final int CACHE = 4096;

    private final Map<String, Map<String, String>> known = new HashMap<>();

    /** The index of the '}' that closes the set opened at {@code open}, skipping quoted values. */
    int end(String line, int open, String metric, int lineNumber) {
        boolean quoted = false;
        for (int i = open + 1; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted && c == '\\') {
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == '}' && !quoted) {
                return i;
            }
        }
        throw new UsageParseException(lineNumber, quoted ? "label value of " + metric + " is not closed by '\"'"
                : "label set of " + metric + " is not closed by '}'");
    }

    /** The labels between {@code open} and {@code close}, sorted by name and unmodifiable. */
    Map<String, String> read(String line, int open, int close, String metric, int lineNumber) {
        String raw = line.substring(open, close + 1);
        Map<String, String> cached = known.get(raw);
        if (cached != null) {
            return cached;
        }
        TreeMap<String, String> labels = new TreeMap<>();
        int i = skipBlank(line, open + 1);
        while (i < close) {
            i = label(line, i, close, metric, lineNumber, labels);
            if (line.charAt(i) == ',') {
                i = skipBlank(line, i + 1);
            } else if (i != close) {
                throw new UsageParseException(lineNumber, "expected ',' or '}' after a label value of " + metric
                        + ", found " + shown(line.charAt(i)));
            }
        }
        Map<String, String> view = Collections.unmodifiableSortedMap(labels);
        if (known.size() < CACHE) {
            known.put(raw, view);
        }
        return view;
    }

    /** Reads {@code name="value"} at {@code i}; returns the index of the next non-blank after it. */
    private static int label(String line, int i, int close, String metric, int lineNumber,
                             TreeMap<String, String> labels) {
        int start = i;
        if (!isLabelStart(line.charAt(i))) {
            throw new UsageParseException(lineNumber, "expected a label name in the label set of " + metric
                    + ", found " + shown(line.charAt(i)));
        }
        while (isLabelChar(line.charAt(i))) {
            i++;
        }
        String name = line.substring(start, i);
        i = skipBlank(line, i);
        if (line.charAt(i) != '=') {
            throw new UsageParseException(lineNumber, "expected '=' after label name " + name + " of " + metric);
        }
        i = skipBlank(line, i + 1);
        if (line.charAt(i) != '"') {
            throw new UsageParseException(lineNumber, "value of label " + name + " of " + metric
                    + " must be in double quotes");
        }
        StringBuilder value = new StringBuilder();
        for (i++; i < close && line.charAt(i) != '"'; i++) {
            char c = line.charAt(i);
            if (c != '\\') {
                value.append(c);
                continue;
            }
            char next = line.charAt(++i);
            switch (next) {
                case '\\' -> value.append('\\');
                case '"' -> value.append('"');
                case 'n' -> value.append('\n');
                default -> throw new UsageParseException(lineNumber, "invalid escape sequence \\" + next
                        + " in the value of label " + name + " of " + metric + ": only \\\\, \\\" and \\n are allowed");
            }
        }
        if (i >= close) {
            throw new UsageParseException(lineNumber, "label value of " + metric + " is not closed by '\"'");
        }
        if (name.equals("__name__")) {
            throw new UsageParseException(lineNumber, "label name __name__ is reserved");
        }
        if (labels.put(name, value.toString()) != null) {
            throw new UsageParseException(lineNumber, "label " + name + " appears twice in a sample of " + metric);
        }
        return skipBlank(line, i + 1);
    }

    private static int skipBlank(String line, int i) {
        while (i < line.length() && isBlank(line.charAt(i))) {
            i++;
        }
        return i;
    }
}
