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

    /** The console's series colours, in the order series take them. */
    public static final java.util.List<String> PALETTE = java.util.List.of("#2f6fb0", "#f0a13a", "#8e5fb0", "#c2504a",
            "#3c8d5a", "#4aa3a8");

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
