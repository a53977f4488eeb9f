package io.gpumeter.alert.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.shell.ShellWords;
import io.gpumeter.common.text.MarkdownText;
import io.gpumeter.common.triage.InputBundle;
import io.gpumeter.common.triage.TriageRequest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A REGRESSION_CASE as a zip a fresh suite replays: {@code bundle.json} (the metering and governance facts the
 * incident's triage read, redacted to its tenant, as the ledger's {@code POST /api/v1/facts/bundles} takes them),
 * {@code usage.json} (the usage minutes it read, as {@code POST /api/v1/usage} takes them; absent when it read none),
 * {@code expected.json} (the triage question and the cause it must answer), {@code replay.sh} and a README giving the
 * same commands, each a curl line whose every word is quoted ({@link ShellWords}).
 */
final class RegressionCaseExport {

    static final String BUNDLE = "bundle.json";
    static final String USAGE = "usage.json";

    private RegressionCaseExport() {
    }

    /**
     * @param frozen whether the inputs were kept when the review was written (else read from the ledger now)
     * @param note   what the redaction did
     */
    static byte[] zip(Review review, int n, RegressionCase item, TriageRequest request, InputBundle inputs,
                      boolean frozen, String note, ObjectMapper json) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        String query = request.query();
        // the triage's own answer is what a replay must reproduce; a label, or the reviewer's when it is none
        String cause = review.triage() != null && review.triage().cause() != null
                && review.triage().cause().matches("[a-z0-9-]{1,100}") ? review.triage().cause() : review.decision().cause();
        boolean usage = inputs.usage() != null && inputs.usage().values() > 0;
        List<String> commands = commands(query, usage);
        files.put("README.md", readme(review, n, item, query, cause, frozen, note, usage, commands)
                .getBytes(StandardCharsets.UTF_8));
        files.put(BUNDLE, write(json, inputs.bundle()));
        if (usage) {
            files.put(USAGE, write(json, inputs.usage()));
        }
        ObjectNode expected = json.createObjectNode().put("incident", review.incidentId())
                .put("reviewVersion", review.version()).put("triageQuery", query)
                .put("cause", cause).put("decidedCause", review.decision().cause())
                .put("decidedRootCauseClass", review.decision().rootCauseClass());
        if (review.triage() != null) {
            expected.put("symptom", String.valueOf(review.triage().symptom())).put("layer", review.triage().layer());
        }
        files.put("expected.json", write(json, expected));
        files.put("replay.sh", replay(commands, cause).getBytes(StandardCharsets.UTF_8));
        return zip(files);
    }

    private static String readme(Review review, int n, RegressionCase item, String query, String cause, boolean frozen,
                                 String note, boolean usage, List<String> commands) {
        return "# Regression case " + n + " of incident " + MarkdownText.literal(review.incidentId()) + "\n\n"
                + (item.note() == null ? "" : MarkdownText.literal(item.note()) + "\n\n")
                + "Every fact the incident's triage read, "
                + (frozen ? "as kept when the review was written" : "as the ledger answered when this was exported")
                + " (" + (note == null ? "redacted to the incident's namespace" : note) + "): `" + BUNDLE
                + "` the metering facts (namespaces, nodes with their HAMi registrations, pod versions) and the governance"
                + " facts (pod views, events, log lines, Workloads, node statuses, the GPU stack, Xids), as the ledger's `"
                + "/api/v1/facts/bundles` takes them"
                + (usage ? "; `" + USAGE + "` the minutes of the cards' series it read, as `/api/v1/usage` takes them"
                : "; it read no usage")
                + ". Replayed into a fresh suite it must triage to `" + cause + "` (`expected.json`).\n\n"
                + "Replay, with `GPUMETER_TOKEN` an admin's token of that suite (the ledger's intake takes admins' and "
                + "services' tokens), `LEDGER` and `ALERT` its ledger and "
                + "alert-service (e.g. `http://ledger-service:8082`, `http://alert-service:8084`), from this directory "
                + "(`sh replay.sh` runs the same):\n\n"
                + fenced(String.join("\n", commands))
                + "\nThe last answers the triage of `" + query + "`; its `cause` must be `" + cause + "`.\n";
    }

    /** The curl lines of a replay: the bundle, then the usage, to the ledger; then the triage's question, asked again. */
    static List<String> commands(String query, boolean usage) {
        String auth = "-H " + ShellWords.quote("Authorization: Bearer ") + ShellWords.variable("GPUMETER_TOKEN");
        String post = "curl -fsS -X POST " + auth + " -H " + ShellWords.quote("Content-Type: application/json");
        List<String> out = new ArrayList<>();
        out.add(post + " --data-binary @" + BUNDLE + " " + ShellWords.variable("LEDGER")
                + ShellWords.quote("/api/v1/facts/bundles"));
        if (usage) {
            out.add(post + " --data-binary @" + USAGE + " " + ShellWords.variable("LEDGER") + ShellWords.quote("/api/v1/usage"));
        }
        out.add("curl -fsS " + auth + " " + ShellWords.variable("ALERT") + ShellWords.quote("/api/v1/triage?" + query));
        return out;
    }

    /** A fenced block whose fence is longer than any run of backticks in it, so nothing in it closes it early. */
    private static String fenced(String text) {
        int longest = 0;
        int run = 0;
        for (char c : text.toCharArray()) {
            run = c == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(Math.max(3, longest + 1));
        return fence + "sh\n" + text + "\n" + fence + "\n";
    }

    private static String replay(List<String> commands, String cause) {
        return "#!/bin/sh\n# Replays this case's facts into a suite and asks the triage again; it must answer the cause below.\n"
                + "set -eu\n"
                + String.join("\necho\n", commands)
                + "\necho\n# expected cause: " + cause + "\n";
    }

    private static byte[] write(ObjectMapper json, Object value) {
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] zip(Map<String, byte[]> files) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                zip.putNextEntry(new ZipEntry(f.getKey()));
                zip.write(f.getValue());
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
