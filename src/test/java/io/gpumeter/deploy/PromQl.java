package io.gpumeter.deploy;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Just enough PromQL to list the metric names an expression selects, so that the tests can hold dashboards and
 * rules to the series that actually exist. Syntax itself is promtool's job.
 */
final class PromQl {

    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "by", "without", "on", "ignoring",
            "group_left", "group_right", "bool", "offset", "inf", "nan", "atan2");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern OFFSET = Pattern.compile("\\boffset\\s+-?[0-9a-z]+");
    private static final Pattern NUMBER = Pattern.compile(
            "(?<![A-Za-z_:0-9])(0x[0-9a-fA-F]+|[0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]+)?|\\.[0-9]+([eE][+-]?[0-9]+)?)");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*");

    /** Grafana's global variables, replaced by values of the same kind. */
    private static final Map<String, String> GRAFANA_GLOBALS = Map.of(
            "__rate_interval", "5m", "__interval", "1m", "__range", "1h",
            "__range_s", "3600", "__range_ms", "3600000", "__interval_ms", "60000");
    private static final Pattern GRAFANA_VARIABLE = Pattern.compile("\\$\\{(\\w+)(?::\\w+)?}|\\$(\\w+)|\\[\\[(\\w+)]]");

    private PromQl() {
    }

    /** The metric names an expression selects (functions, aggregations, keywords and labels left out). */
    static Set<String> metricNames(String expr) {
        String s = STRING.matcher(expr).replaceAll(" ");
        s = stripBlocks(s, '{', '}');
        s = stripBlocks(s, '[', ']');
        s = GROUPING.matcher(s).replaceAll(" ");
        s = OFFSET.matcher(s).replaceAll(" ");
        s = NUMBER.matcher(s).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String word = m.group();
            int next = m.end();
            while (next < s.length() && Character.isWhitespace(s.charAt(next))) {
                next++;
            }
            boolean call = next < s.length() && s.charAt(next) == '(';
            if (!call && !KEYWORDS.contains(word.toLowerCase(java.util.Locale.ROOT))) {
                names.add(word);
            }
        }
        return names;
    }

    /**
     * A Grafana query as plain PromQL: global variables become durations or numbers, a dashboard variable inside a
     * label matcher's quotes stays text (".*"), one outside them becomes 1.
     */
    static String fromGrafana(String expr) {
        StringBuilder out = new StringBuilder();
        boolean quoted = false;
        int i = 0;
        while (i < expr.length()) {
            char c = expr.charAt(i);
            if (c == '"' && (i == 0 || expr.charAt(i - 1) != '\\')) {
                quoted = !quoted;
            }
            Matcher m = GRAFANA_VARIABLE.matcher(expr).region(i, expr.length());
            if ((c == '$' || c == '[') && m.lookingAt()) {
                String name = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
                String value = GRAFANA_GLOBALS.get(name);
                out.append(value != null ? value : quoted ? ".*" : "1");
                i = m.end();
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** For {@code label_values(<expr>, <label>)} and {@code query_result(<expr>)} variables: the expression. */
    static String variableExpression(String query) {
        String q = query.trim();
        Matcher labelValues = Pattern.compile("^label_values\\((.*),\\s*[A-Za-z_][A-Za-z0-9_]*\\s*\\)$", Pattern.DOTALL).matcher(q);
        if (labelValues.matches()) {
            return labelValues.group(1);
        }
        Matcher queryResult = Pattern.compile("^query_result\\((.*)\\)$", Pattern.DOTALL).matcher(q);
        if (queryResult.matches()) {
            return queryResult.group(1);
        }
        throw new IllegalArgumentException("not a Prometheus variable query: " + query);
    }

    /** Removes bracketed blocks such as label matchers and range selectors, nested ones included. */
    private static String stripBlocks(String s, char open, char close) {
        StringBuilder out = new StringBuilder();
        int depth = 0;
        for (char c : s.toCharArray()) {
            if (c == open) {
                depth++;
                out.append(' ');
            } else if (c == close && depth > 0) {
                depth--;
                out.append(' ');
            } else if (depth == 0) {
                out.append(c);
            }
        }
        return out.toString();
    }
}
