package io.gpumeter.billing.service;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.gpumeter.billing.domain.CostReport;
import io.gpumeter.billing.domain.ReportRow;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.List;

/**
 * Renders a report as a JSON array of objects keyed by the CSV column names, numbers as plain JSON numbers and
 * empty cells as null.
 */
public final class ReportJsonWriter {

    // Own factory rather than the application's ObjectMapper, so global Jackson settings cannot change the bytes.
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();

    private ReportJsonWriter() {
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
        List<String> columns = report.columns();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartArray();
            for (ReportRow row : report.rows()) {
                json.writeStartObject();
                List<Object> values = report.values(row);
                for (int i = 0; i < columns.size(); i++) {
                    json.writeFieldName(columns.get(i));
                    if (values.get(i) instanceof BigDecimal number) {
                        json.writeNumber(number);
                    } else if (values.get(i) == null) {
                        json.writeNull();
                    } else {
                        json.writeString((String) values.get(i));
                    }
                }
                json.writeEndObject();
            }
            json.writeEndArray();
        }
    }
}
