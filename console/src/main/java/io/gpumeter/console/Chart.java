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

    /** The console's series colours, in the order series take them ({@link Palette}). */
    public static final java.util.List<String> PALETTE = Palette.SERIES;

    /** A chart of a typed option ({@link ChartOption}). */
    public static Chart of(String id, String label, ChartOption option, ObjectMapper json) {
        return of(id, label, option.build(), json);
    }

    public static Chart of(String id, String label, Object option, ObjectMapper json) {
        try {
            // Safe inside a script element whatever the data: no '<', '>' or '&' survive as such.
            String text = json.writeValueAsString(option).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
            return new Chart(id, label, new RawString(text));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("chart option not serializable", e);
        }
    }
}
