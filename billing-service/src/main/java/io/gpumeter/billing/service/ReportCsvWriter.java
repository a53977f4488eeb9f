package io.gpumeter.billing.service;

import io.gpumeter.billing.domain.CostReport;
import io.gpumeter.billing.domain.ReportRow;
import io.gpumeter.common.csv.CsvCells;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders a report as RFC 4180 CSV (CRLF line ends, one header line), with every cell defused against formulas.
 */
public final class ReportCsvWriter {

    private ReportCsvWriter() {
    }

    public static byte[] write(CostReport report) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            write(report, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // an in-memory stream does not fail
        }
        return out.toByteArray();
    }

    /** Writes row by row into {@code out} (UTF-8) and flushes it; {@code out} stays open. */
    public static void write(CostReport report, OutputStream out) throws IOException {
        CSVFormat format = CSVFormat.RFC4180.builder()
                .setHeader(report.columns().toArray(String[]::new))
                .get();
        Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
        CSVPrinter printer = new CSVPrinter(writer, format);
        for (ReportRow row : report.rows()) {
            printer.printRecord(cells(report.values(row)));
        }
        printer.flush();
    }

    private static List<String> cells(List<Object> values) {
        List<String> cells = new ArrayList<>();
        for (Object value : values) {
            if (value instanceof BigDecimal number) {
                // A plain decimal ("-4.10") is a number to a spreadsheet, never a formula: only text is defused.
                cells.add(number.toPlainString());
            } else {
                cells.add(value == null ? "" : CsvCells.neutralise((String) value));
            }
        }
        return cells;
    }
}
