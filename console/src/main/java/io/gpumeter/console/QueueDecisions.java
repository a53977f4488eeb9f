package io.gpumeter.console;

import io.gpumeter.console.QueueAnswers.Decisions;
import io.gpumeter.console.QueueAnswers.Step;
import io.quarkus.qute.TemplateData;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One object's scheduling decisions on the Queues page: its steps as a table and as a timeline, its waits as bands. */
final class QueueDecisions {

    private QueueDecisions() {
    }

    /** What the page shows of the object. */
    @TemplateData
    record View(String kind, String object, String state, String queue, String reason, List<Step> steps, int lanes,
                String triage) {

        public int chartHeight() {
            return Math.max(160, 70 + 40 * lanes);
        }
    }

    /** The view, and the timeline's option when there is a step to draw (null otherwise). */
    record Drawn(View view, ChartOption timeline) {
    }

    static Drawn of(Decisions d, String kind, String object, String triage) {
        List<Step> steps = d.trail() == null ? List.of() : d.trail();
        List<String> lanes = new ArrayList<>();
        List<Map<String, Object>> marks = new ArrayList<>();
        for (Step t : steps) {
            String step = t.step() == null ? "" : t.step();
            if (!lanes.contains(step)) {
                lanes.add(step);
            }
            String said = ((t.status() == null ? "" : t.status()) + " " + (t.reason() == null ? "" : t.reason())).strip();
            marks.add(Map.of("value", List.of(t.at(), step), "name", said,
                    "itemStyle", Map.of("color", t.reasonClass() != null ? Palette.RED : Palette.BLUE)));
        }
        List<List<String>> waits = new ArrayList<>();
        for (QueueAnswers.Waited w : d.waits() == null ? List.<QueueAnswers.Waited>of() : d.waits()) {
            if (w.waitFrom() != null && w.end() != null) {
                waits.add(List.of(w.waitFrom(), w.end()));
            }
        }
        ChartOption timeline = null;
        if (!steps.isEmpty()) {
            timeline = ChartOption.chart().tooltip(ChartOption.Tooltip.ITEM).grid(140, 30, 20, 40).timeAcross(null, null)
                    .lanesDown(lanes, 0);
            timeline.marks("steps", marks).colour(null).shade(waits, Palette.SHADE_ORANGE, "waiting", Palette.DARK_ORANGE);
        }
        String queue = d.queue() == null ? "" : d.queue().text();
        View view = new View(kind, object, d.state() == null ? "" : d.state(), queue, d.reason() == null ? "" : d.reason(),
                steps, lanes.size(), triage);
        return new Drawn(view, timeline);
    }
}
