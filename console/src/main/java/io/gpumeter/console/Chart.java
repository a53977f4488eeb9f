package io.gpumeter.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.qute.RawString;
import io.quarkus.qute.TemplateData;

/**
 * An ECharts option rendered on the server as JSON and placed in the page as data ({@code <script
 * type="application/json">}), so no page carries inline script; {@code /static/console.js} draws it.
 *
 * @param label what the chart shows, for screen readers
 */
@TemplateData
public record Chart(String id, String label, RawString option) {

    /** A chart of a typed option ({@link ChartOption}). */
    public static Chart of(String id, String label, ChartOption option, ObjectMapper json) {
        try {
            // Safe inside a script element whatever the data: no '<', '>' or '&' survive as such.
            String text = json.writeValueAsString(option.build()).replace("<", "\\u003c").replace(">", "\\u003e")
                    .replace("&", "\\u0026");
            return new Chart(id, label, new RawString(text));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("chart option not serializable", e);
        }
    }
}
