package io.gpumeter.alert.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.shell.ShellWords;
import io.gpumeter.common.text.MarkdownText;
import io.gpumeter.common.triage.TriageRequest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A REGRESSION_CASE as a zip a fresh suite replays: {@code governance.json} (the facts the incident's triage read,
 * redacted to its tenant, in the ledger's governance intake format), {@code expected.json} (the triage question and
 * the cause it must answer), {@code replay.sh} and a README saying how.
 */
final class RegressionCaseExport {

    private RegressionCaseExport() {
    }

    /**
     * @param frozen whether the inputs were kept when the review was written (else read from the ledger now)
     * @param note   what the redaction did
     */
    static byte[] zip(Review review, int n, RegressionCase item, TriageRequest request, GovernanceBatch inputs,
                      boolean frozen, String note, ObjectMapper json) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        String query = request.query();
        // the triage's own answer is what a replay must reproduce; a label, or the reviewer's when it is none
        String cause = review.triage() != null && review.triage().cause() != null
                && review.triage().cause().matches("[a-z0-9-]{1,100}") ? review.triage().cause() : review.decision().cause();
        files.put("README.md", readme(review, n, item, query, cause, frozen, note).getBytes(StandardCharsets.UTF_8));
        files.put("governance.json", write(json, inputs));
        ObjectNode expected = json.createObjectNode().put("incident", review.incidentId())
                .put("reviewVersion", review.version()).put("triageQuery", query)
                .put("cause", cause).put("decidedCause", review.decision().cause())
                .put("decidedRootCauseClass", review.decision().rootCauseClass());
        if (review.triage() != null) {
            expected.put("symptom", String.valueOf(review.triage().symptom())).put("layer", review.triage().layer());
        }
        files.put("expected.json", write(json, expected));
        files.put("replay.sh", replay(query, cause).getBytes(StandardCharsets.UTF_8));
        return zip(files);
    }

    private static String readme(Review review, int n, RegressionCase item, String query, String cause, boolean frozen,
                                 String note) {
        return "# Regression case " + n + " of incident " + MarkdownText.literal(review.incidentId()) + "\n\n"
                + (item.note() == null ? "" : MarkdownText.literal(item.note()) + "\n\n")
                + "`governance.json` holds every fact the incident's triage read, "
                + (frozen ? "as kept when the review was written" : "as the ledger answered when this was exported")
                + " (" + (note == null ? "redacted to the incident's namespace" : note) + "). Replayed into a fresh "
                + "suite it must triage to `" + cause + "`.\n\n"
                + "Replay: `GPUMETER_TOKEN=… LEDGER=http://ledger-service:8082 ALERT=http://alert-service:8084 sh replay.sh`"
                + " — it POSTs `governance.json` to the ledger's `/api/v1/facts/governance` and asks "
                + "`/api/v1/triage?" + query + "`, whose `cause` must be `" + cause + "` (`expected.json`).\n";
    }

    private static String replay(String query, String cause) {
        String auth = ShellWords.quote("Authorization: Bearer ") + ShellWords.variable("GPUMETER_TOKEN");
        return "#!/bin/sh\n# Replays this case's facts into a suite and asks the triage again; it must answer the cause below.\n"
                + "set -eu\n"
                + "curl -fsS -X POST -H " + auth + " -H " + ShellWords.quote("Content-Type: application/json")
                + " --data-binary @governance.json " + ShellWords.variable("LEDGER") + ShellWords.quote("/api/v1/facts/governance")
                + "\necho\n"
                + "curl -fsS -H " + auth + " " + ShellWords.variable("ALERT") + ShellWords.quote("/api/v1/triage?" + query)
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
