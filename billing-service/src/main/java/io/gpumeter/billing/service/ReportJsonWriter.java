package io.gpumeter.billing.service;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.gpumeter.billing.domain.MonthlyReport;
import io.gpumeter.billing.domain.ReportRow;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.List;

/**
 * Renders a report as a JSON array of objects keyed by the CSV column names, numbers as plain JSON numbers.
 */
public final class ReportJsonWriter {

    // Own factory rather than the application's ObjectMapper, so global Jackson settings cannot change the bytes.
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private ReportJsonWriter() {
    }

    public static byte[] write(MonthlyReport report) {
        List<String> columns = report.columns();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartArray();
            for (ReportRow row : report.rows()) {
                json.writeStartObject();
                List<Object> values = row.values();
                for (int i = 0; i < columns.size(); i++) {
                    json.writeFieldName(columns.get(i));
                    if (values.get(i) instanceof BigDecimal number) {
                        json.writeNumber(number);
                    } else {
                        json.writeString((String) values.get(i));
                    }
                }
                json.writeEndObject();
            }
            json.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // an in-memory stream does not fail
        }
        return out.toByteArray();
    }
}
