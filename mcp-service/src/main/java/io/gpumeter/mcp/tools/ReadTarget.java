package io.gpumeter.mcp.tools;

import io.gpumeter.mcp.auth.McpCaller;

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
            // a value is one segment: its slashes and dots never move the path
            m.appendReplacement(path, Matcher.quoteReplacement(encode(value).replace("/", "%2F").replace(".", "%2E")));
        }
        m.appendTail(path);
        StringJoiner q = new StringJoiner("&");
        query.forEach((k, v) -> q.add(encode(k) + "=" + encode(v)));
        return q.length() == 0 ? path.toString() : path + "?" + q;
    }

    /**
     * Percent-encodes all but the unreserved characters and those a query value may carry as they are (RFC 3986
     * {@code : , / @}), so an instant or a namespace/pod reads in the URL as the caller wrote it.
     */
    public static String encode(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~:,/@".indexOf(c) >= 0)) {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
            }
        }
        return out.toString();
    }
}
