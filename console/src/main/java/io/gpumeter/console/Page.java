package io.gpumeter.console;

import io.quarkus.qute.TemplateData;

import java.util.ArrayList;
import java.util.List;

/**
 * What every page shows around its figures: the user and the menu, messages (refusals, empty states), the charts,
 * and the API calls the figures came from.
 */
@TemplateData
public class Page {

    public final String title;
    /** The menu entry to highlight: {@code fleet} or {@code hours}. */
    public final String nav;
    public final Viewer viewer;
    public final List<Message> messages = new ArrayList<>();
    public final List<ApiCall> calls = new ArrayList<>();
    public final List<Chart> charts = new ArrayList<>();

    public Page(String title, String nav, Viewer viewer) {
        this.title = title;
        this.nav = nav;
        this.viewer = viewer;
    }

    public Page message(Message message) {
        messages.add(message);
        return this;
    }

    public Page call(ApiCall call) {
        calls.add(call);
        return this;
    }

    public Chart chart(String id) {
        return charts.stream().filter(c -> c.id().equals(id)).findFirst().orElse(null);
    }

    /** True when some call was refused: the page then shows its message instead of figures. */
    public boolean refused() {
        return messages.stream().anyMatch(m -> m.kind().equals("error"));
    }
}
