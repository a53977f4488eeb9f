package io.gpumeter.mcp.tools;

import io.gpumeter.mcp.auth.McpCaller;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The REST path and query a tool call reads: path arguments fill their segments, the others become query parameters,
 * every value percent-encoded. A tenant-confined caller who leaves a {@code {tenant}} segment out reads its own.
 */
public final class ReadTarget {

    private static final Pattern SEGMENT = Pattern.compile("\\{([^}]+)}");

    private ReadTarget() {
    }

    public static String of(ReadTool tool, Map<String, String> args, McpCaller caller) {
        Map<String, String> query = new LinkedHashMap<>(args);
        Matcher m = SEGMENT.matcher(tool.path());
        StringBuilder path = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value = query.remove(name);
            if (value == null && name.equals("tenant")) {
                value = caller.caller().confinedTo().orElseThrow(() -> new BadArgument("tenant",
                        "it is required for a token that reads every tenant: name the tenant."));
            }
            if (value == null) {
                throw new BadArgument(name, "it is required.");
            }
            m.appendReplacement(path, Matcher.quoteReplacement(encode(value)));
        }
        m.appendTail(path);
        StringJoiner q = new StringJoiner("&");
        query.forEach((k, v) -> q.add(encode(k) + "=" + encode(v)));
        return q.length() == 0 ? path.toString() : path + "?" + q;
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
