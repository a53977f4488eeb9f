package io.gpumeter.slo.acceptance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A run's assertions and matrix figures grouped by quadrant, in the quadrants' order — the four sections both verdicts
 * show, each with its own verdict. Within a section assertions keep the run's order, and figures too within each
 * benchmark class (peak, shareability, deliverability, so each class is one group of columns). A figure whose
 * quadrant cannot be told (a run edited by hand) is shown under "Other" rather than dropped.
 */
final class VerdictSections {

    /** One section: its title and what it covers, its assertions, its matrix figures and its verdict over them. */
    record Section(String title, String covers, List<Run.Outcome> assertions, List<Run.MatrixRow> figures) {

        /** The section's verdict as the run's is decided; null when it asserts nothing. */
        String verdict() {
            return assertions.isEmpty() ? null : Run.overall(assertions);
        }

        long count(String verdict) {
            return assertions.stream().filter(o -> verdict.equals(o.verdict())).count();
        }

        /** "2 passed, 1 failed, 0 without data", or "no assertion". */
        String tally() {
            return assertions.isEmpty() ? "no assertion" : count(Run.PASS) + " passed, " + count(Run.FAIL) + " failed, "
                    + count(Run.NO_DATA) + " without data";
        }
    }

    private VerdictSections() {
    }

    /** Peak, shareability, deliverability: the classes side by side in this order, each a group of its own. */
    private static int classOrder(Run.MatrixRow r) {
        int i = List.of(Matrix.PEAK, Matrix.SHAREABILITY, Matrix.DELIVERABILITY).indexOf(r.benchmarkClass());
        return i < 0 ? 3 : i;
    }

    static List<Section> of(Run run) {
        List<Section> out = new ArrayList<>();
        for (Quadrant q : Quadrant.values()) {
            out.add(new Section(q.title(), q.covers(),
                    run.assertions().stream().filter(o -> Quadrant.of(o.quadrant(), o.metric()) == q).toList(),
                    run.matrix().stream().filter(r -> Quadrant.of(r.quadrant(), r.metric()) == q)
                            .sorted(Comparator.comparingInt(VerdictSections::classOrder)).toList()));
        }
        List<Run.Outcome> otherAssertions = run.assertions().stream()
                .filter(o -> Quadrant.of(o.quadrant(), o.metric()) == null).toList();
        List<Run.MatrixRow> otherFigures = run.matrix().stream()
                .filter(r -> Quadrant.of(r.quadrant(), r.metric()) == null).toList();
        if (!otherAssertions.isEmpty() || !otherFigures.isEmpty()) {
            out.add(new Section("Other", "Figures of no known quadrant", otherAssertions, otherFigures));
        }
        return out;
    }
}
