package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.slo.repository.StoredRun;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The acceptance pack: the run, its plan, the verdict in HTML and Markdown, the matrix and commitments as CSV, and
 * per clause its evidence files, with a SHA256SUMS manifest over all of them. Entries are in name order with one
 * fixed time, so the same run packed twice is the same bytes.
 */
public final class Pack {

    /** Every entry's time: the earliest a zip can hold, the same for every pack. */
    static final LocalDateTime ENTRY_TIME = LocalDateTime.of(1980, 1, 1, 0, 0);

    private Pack() {
    }

    public static byte[] zip(StoredRun row, Run run, ObjectNode view, ObjectMapper json) {
        Map<String, byte[]> files = new TreeMap<>();
        put(files, "run.json", pretty(json, view));
        put(files, "plan.json", row.plan + "\n");
        put(files, "verdict.html", VerdictHtml.render(row.id, row.createdAt, run));
        put(files, "verdict.md", VerdictMarkdown.render(row.id, row.createdAt, run));
        put(files, "matrix.csv", matrix(run));
        put(files, "commitments.csv", commitments(run));
        int n = 1;
        for (Run.Outcome o : run.assertions()) {
            String dir = String.format(Locale.ROOT, "evidence/%02d-%s/", n++, slug(o.name()));
            put(files, dir + "verdict.txt", o.verdict() + "\n" + o.statement() + "\n");
            StringBuilder sh = new StringBuilder("#!/bin/sh\n# The reads behind this verdict; set GPUMETER_TOKEN"
                    + " (and GPUMETER_SLO for slo-service) to repeat them.\n");
            StringBuilder answers = new StringBuilder();
            for (Run.Call c : o.evidence().requests()) {
                sh.append(c.curl()).append('\n');
                answers.append("# ").append(c.curl()).append("\n# status ").append(c.status()).append('\n')
                        .append(c.response()).append("\n\n");
            }
            put(files, dir + "requests.sh", sh.toString());
            put(files, dir + "responses.txt", answers.toString());
            put(files, dir + "pods.csv", pods(o));
            put(files, dir + "curve.csv", o.evidence().curveCsv() == null ? "" : o.evidence().curveCsv());
            if (!o.evidence().quotes().isEmpty()) {
                put(files, dir + "quotes.txt", String.join("\n", o.evidence().quotes()) + "\n");
            }
        }
        StringBuilder sums = new StringBuilder();
        files.forEach((name, bytes) -> sums.append(sha256(bytes)).append("  ").append(name).append('\n'));
        put(files, "SHA256SUMS", sums.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                ZipEntry e = new ZipEntry("acceptance-run-" + row.id + "/" + f.getKey());
                e.setTimeLocal(ENTRY_TIME);
                zip.putNextEntry(e);
                zip.write(f.getValue());
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static String matrix(Run run) {
        StringBuilder csv = new StringBuilder("class,workload,form,cell,metric,value,unit\n");
        run.matrix().forEach(r -> csv.append(r.benchmarkClass()).append(',').append(q(r.workload())).append(',')
                .append(r.form()).append(',').append(r.cell()).append(',').append(r.metric()).append(',')
                .append(r.value() == null ? "" : r.value().toPlainString()).append(',').append(r.unit()).append('\n'));
        return csv.toString();
    }

    private static String commitments(Run run) {
        StringBuilder csv = new StringBuilder("workload,form,cell,slo_sli,slo_ms,throughput_per_gpu,gpus,jitter_margin,"
                + "failure_margin,peak_margin,committed_per_gpu,queue_wait_ceiling_seconds,degrades_first\n");
        run.commitments().forEach(k -> csv.append(q(k.workload())).append(',').append(k.form()).append(',')
                .append(k.cell()).append(',').append(s(k.sloSli())).append(',').append(s(k.sloMs())).append(',')
                .append(s(k.throughputPerGpu())).append(',').append(s(k.gpus())).append(',').append(s(k.jitterMargin()))
                .append(',').append(s(k.failureMargin())).append(',').append(s(k.peakMargin())).append(',')
                .append(s(k.committedPerGpu())).append(',').append(s(k.queueWaitCeilingSeconds())).append(',')
                .append(q(k.degradesFirst())).append('\n'));
        return csv.toString();
    }

    private static String pods(Run.Outcome o) {
        StringBuilder csv = new StringBuilder("cell,namespace,pod,node,gpu_uuid,unit,mig_profile,cores,memory_mib,"
                + "fraction,owner_kind,owner_name,tenant\n");
        o.evidence().pods().forEach(p -> csv.append(p.cell()).append(',').append(p.namespace()).append(',')
                .append(p.pod()).append(',').append(s(p.node())).append(',').append(s(p.gpuUuid())).append(',')
                .append(s(p.unitKind())).append(',').append(s(p.migProfile())).append(',').append(s(p.cores()))
                .append(',').append(s(p.memoryMiB())).append(',').append(s(p.fraction())).append(',')
                .append(s(p.ownerKind())).append(',').append(q(p.ownerName())).append(',').append(q(p.tenant()))
                .append('\n'));
        return csv.toString();
    }

    static String slug(String name) {
        String s = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        return s.isEmpty() ? "assertion" : s.length() > 40 ? s.substring(0, 40) : s;
    }

    private static String s(Object v) {
        return v == null ? "" : v instanceof java.math.BigDecimal d ? d.toPlainString() : v.toString();
    }

    /** A CSV field, quoted when it holds a separator or a quote. */
    private static String q(String v) {
        if (v == null) {
            return "";
        }
        return v.contains(",") || v.contains("\"") || v.contains("\n") ? "\"" + v.replace("\"", "\"\"") + "\"" : v;
    }

    private static String pretty(ObjectMapper json, Object value) {
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a run writes as JSON", e);
        }
    }

    private static void put(Map<String, byte[]> files, String name, String text) {
        files.put(name, text.getBytes(StandardCharsets.UTF_8));
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
