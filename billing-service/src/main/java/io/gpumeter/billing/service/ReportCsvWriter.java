package io.gpumeter.billing.service;

import io.gpumeter.billing.domain.CsvCells;
import io.gpumeter.billing.domain.MonthlyReport;
import io.gpumeter.billing.domain.ReportRow;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import java.io.IOException;
import java.io.UncheckedIOException;
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

    public static byte[] write(MonthlyReport report) {
        CSVFormat format = CSVFormat.RFC4180.builder()
                .setHeader(report.columns().toArray(String[]::new))
                .get();
        StringBuilder out = new StringBuilder();
        try (CSVPrinter printer = new CSVPrinter(out, format)) {
            for (ReportRow row : report.rows()) {
                printer.printRecord(cells(row));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringBuilder does not fail
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> cells(ReportRow row) {
        List<String> cells = new ArrayList<>();
        for (Object value : row.values()) {
            String text = value instanceof BigDecimal number ? number.toPlainString() : (String) value;
            cells.add(CsvCells.neutralise(text));
        }
        return cells;
    }
}
