package io.gpumeter.billing.service;

import io.gpumeter.billing.domain.CostReport;
import io.gpumeter.billing.domain.FocusLabels;
import io.gpumeter.billing.domain.ReportFormat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A priced report in one format: its bytes are written on demand, never held whole, and hashed by a first pass
 * that discards them, so the hash can go in a header before the body streams.
 */
public record ReportBody(CostReport report, ReportFormat format, FocusLabels focus) {

    public static final String TEXT_CSV = "text/csv; charset=UTF-8";

    public ReportBody(CostReport report, ReportFormat format) {
        this(report, format, FocusLabels.DEFAULT);
    }

    public void writeTo(OutputStream out) throws IOException {
        switch (format) {
            case CSV -> ReportCsvWriter.write(report, out);
            case JSON -> ReportJsonWriter.write(report, out);
            case FOCUS -> FocusCsvWriter.write(report, focus, out);
        }
    }

    /** Lower-case hex SHA-256 of exactly the bytes {@link #writeTo} writes. */
    public String sha256() {
        try (DigestOutputStream digest = new DigestOutputStream(OutputStream.nullOutputStream(),
                MessageDigest.getInstance("SHA-256"))) {
            writeTo(digest);
            return HexFormat.of().formatHex(digest.getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // the null stream does not fail
        }
    }

    public String mediaType() {
        return switch (format) {
            case CSV, FOCUS -> TEXT_CSV;
            case JSON -> "application/json";
        };
    }
}
