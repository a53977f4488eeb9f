package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.shell.ShellWords;
import io.gpumeter.slo.repository.StoredRun;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.List;
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
        put(files, "README.md", readme(row.id));
        put(files, "commitments.csv", commitments(run));
        int n = 1;
        for (Run.Outcome o : run.assertions()) {
            String dir = String.format(Locale.ROOT, "evidence/%02d-%s/", n++, slug(o.name()));
            put(files, dir + "verdict.txt", o.verdict() + "\n" + o.statement() + "\n");
            StringBuilder answers = new StringBuilder();
            for (Run.Call c : o.evidence().requests()) {
                answers.append("# ").append(oneLine(c.curl())).append("\n# status ").append(c.status()).append('\n')
                        .append(c.response()).append("\n\n");
            }
            put(files, dir + "requests.sh", requests(o.evidence().requests()));
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

    /**
     * The curl lines to run again. A line is written to run only when it is made of quoted words alone (as
     * {@link CurlLine} writes them); any other, such as one stored by a build that pasted names into double quotes, is
     * kept as a comment, so running the file never runs what a name smuggled into it.
     */
    static String requests(List<Run.Call> calls) {
        StringBuilder sh = new StringBuilder("#!/bin/sh\n# The reads behind this verdict; set GPUMETER_TOKEN"
                + " (and GPUMETER_SLO for slo-service) to repeat them.\n");
        for (Run.Call c : calls) {
            if (ShellWords.onlyQuoted(c.curl())) {
                sh.append(c.curl()).append('\n');
            } else {
                sh.append("# not run, its words are not all quoted: ").append(oneLine(c.curl())).append('\n');
            }
        }
        return sh.toString();
    }

    /** A line kept as a comment stays one line: a line break in it would end the comment. */
    private static String oneLine(String text) {
        return text.replace("\r", "\\r").replace("\n", "\\n");
    }

    private static String matrix(Run run) {
        StringBuilder csv = new StringBuilder("quadrant,class,workload,form,cell,metric,value,unit\n");
        run.matrix().forEach(r -> csv.append(PackCsv.line(Quadrant.of(r.quadrant(), r.metric()), r.benchmarkClass(),
                r.workload(), r.form(), r.cell(), r.metric(), r.value(), r.unit())));
        return csv.toString();
    }

    /**
     * What the pack holds and what each figure means, quadrant by quadrant, from the metrics' own definitions: a
     * reviewer reads the verdict without the suite's documentation at hand. The same for every run of one build.
     */
    static String readme(long id) {
        StringBuilder md = new StringBuilder("# Acceptance run ").append(id).append("\n\n")
                .append("""
                        - `verdict.html`, `verdict.md`: the one-page verdict, a section per quadrant.
                        - `run.json`: the run as computed and stored; `plan.json`: the plan as submitted.
                        - `matrix.csv`: every figure by quadrant, benchmark class, workload, form and cell.
                        - `commitments.csv`: what each cell can be promised per GPU at its SLO, after the capacity
                          plan's three margins (shares of capacity, each at least its floor): jitter = 1 − 1/w, w the
                          larger of the interference factor and 1 + the p99's spread over the p99; failures = failures
                          per card-hour × hours to repair + planned maintenance's share of card-hours; peaks = GPUs
                          pending at the busiest hour / (demand's cards + those GPUs). committed = measured × (1 − the
                          three), `*_basis` the facts behind each, `policy` what is configured to give first.
                        - `evidence/NN-assertion/`: `verdict.txt`, the reads behind it (`requests.sh` to run them again,
                          `responses.txt` their answers), the cells' pods (`pods.csv`), the curve behind the figure
                          (`curve.csv`) and what the cluster said (`quotes.txt`).
                        - `SHA256SUMS`: the SHA-256 of every other file.

                        ## Metrics

                        A figure without data is NO_DATA, never PASS. A RATIO clause divides a cell's figure by its
                        baseline cell's. In the matrix a figure of one SLI is named with it: TTFT_P99, TTFT_P99_SPREAD.
                        """);
        for (Quadrant q : Quadrant.values()) {
            md.append("\n### ").append(q.title()).append("\n\n").append(q.covers()).append(".\n\n")
                    .append("| metric | unit | definition |\n|---|---|---|\n");
            for (Plan.Metric m : Plan.Metric.values()) {
                if (m.quadrant() == q) {
                    md.append("| ").append(m.name()).append(m.takesSli() ? " (of the clause's `sli`)" : "").append(" | ")
                            .append(m.unit()).append(" | ").append(m.definition()).append(" |\n");
                }
            }
            if (q == Matrix.JITTER_MINUTE_RATE_QUADRANT) {
                md.append("| ").append(Matrix.JITTER_MINUTE_RATE).append(" | ratio | ")
                        .append(Matrix.JITTER_MINUTE_RATE_DEFINITION).append(" |\n");
            }
            if (q == Quadrant.GOVERNANCE) {
                md.append("| BLOCKED (a clause kind) | s | the pod or Kueue workload named is among what the ledger lists"
                        + " as waiting (Pending or rejected), having begun before the window's end; the figure is how"
                        + " long it had waited when the clause's `within` was up |\n");
            }
        }
        return md.toString();
    }

    private static String commitments(Run run) {
        StringBuilder csv = new StringBuilder("workload,form,cell,slo_sli,slo_ms,throughput_per_gpu,gpus,jitter_margin,"
                + "failure_margin,peak_margin,committed_per_gpu,queue_wait_ceiling_seconds,degrades_first,policy,jitter_basis,"
                + "failure_basis,peak_basis\n");
        run.commitments().forEach(k -> csv.append(PackCsv.line(k.workload(), k.form(), k.cell(), k.sloSli(),
                k.sloMs(), k.throughputPerGpu(), k.gpus(), k.jitterMargin(), k.failureMargin(), k.peakMargin(),
                k.committedPerGpu(), k.queueWaitCeilingSeconds(), k.degradesFirst(), k.policy(),
                basis(k, 0), basis(k, 1), basis(k, 2))));
        return csv.toString();
    }

    /** What decided a commitment's margin (0 jitter, 1 failures, 2 peaks); empty for runs stored before margins were measured. */
    private static String basis(Run.Commitment k, int which) {
        if (k.margins() == null) {
            return "";
        }
        var m = which == 0 ? k.margins().jitter() : which == 1 ? k.margins().failures() : k.margins().peaks();
        return m == null ? "" : m.source() + ": " + m.basis();
    }

    private static String pods(Run.Outcome o) {
        StringBuilder csv = new StringBuilder("cell,namespace,pod,node,gpu_uuid,unit,mig_profile,cores,memory_mib,"
                + "fraction,owner_kind,owner_name,tenant\n");
        o.evidence().pods().forEach(p -> csv.append(PackCsv.line(p.cell(), p.namespace(), p.pod(), p.node(),
                p.gpuUuid(), p.unitKind(), p.migProfile(), p.cores(), p.memoryMiB(), p.fraction(), p.ownerKind(),
                p.ownerName(), p.tenant())));
        return csv.toString();
    }

    static String slug(String name) {
        String s = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        return s.isEmpty() ? "assertion" : s.length() > 40 ? s.substring(0, 40) : s;
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
