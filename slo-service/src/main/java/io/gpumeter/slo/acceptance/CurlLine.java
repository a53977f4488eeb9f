package io.gpumeter.slo.acceptance;

import io.gpumeter.common.shell.ShellWords;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The curl line that repeats a read of an acceptance run, for a reviewer to run from the pack's {@code requests.sh}.
 * Names in it come from plans and from the cluster (a model name its tenant chose), so every word is single-quoted and
 * every query value percent-encoded: the line runs curl and nothing else, and asks what the run asked. The token is
 * the reviewer's {@code $GPUMETER_TOKEN}; slo-service's own reads go to {@code $GPUMETER_SLO}. A triage's evidence
 * names its reads the same way.
 */
public final class CurlLine {

    static final String TOKEN = "GPUMETER_TOKEN";
    static final String SLO = "GPUMETER_SLO";

    private CurlLine() {
    }

    /** A GET of {@code base + path} with the query's name/value pairs (a pair whose value is null is left out). */
    static String get(String base, String path, String... params) {
        return curl(ShellWords.quote(root(base) + path + query(params)));
    }

    /** A GET of slo-service's own {@code path}, at whatever URL the reviewer's {@code $GPUMETER_SLO} names. */
    public static String slo(String path, String... params) {
        return curl(ShellWords.variable(SLO) + ShellWords.quote(path + query(params)));
    }

    /** A POST of a JSON body to {@code base + path}; {@code --data-raw}, so a body is never read as "@file". */
    static String post(String base, String path, String json) {
        return curl("-H " + ShellWords.quote("Content-Type: application/json") + " -X POST "
                + ShellWords.quote(root(base) + path) + " --data-raw " + ShellWords.quote(json));
    }

    private static String curl(String rest) {
        return "curl -sS -H " + ShellWords.quote("Authorization: Bearer ") + ShellWords.variable(TOKEN) + " " + rest;
    }

    private static String root(String base) {
        return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    private static String query(String... params) {
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < params.length; i += 2) {
            if (params[i + 1] != null) {
                pairs.add(encode(params[i]) + "=" + encode(params[i + 1]));
            }
        }
        return pairs.isEmpty() ? "" : "?" + String.join("&", pairs);
    }

    /** Percent-encoding, a space as %20: the one spelling every server decodes alike ('+' is a space only to some). */
    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
