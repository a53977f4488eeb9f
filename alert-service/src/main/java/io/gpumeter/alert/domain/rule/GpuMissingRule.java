package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Card;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * GPU lost from the inventory: an occupied card that reported in the look-back has been silent for longer than
 * {@code silence} while another card of its node still reports, so the node and its exporter are alive.
 */
public final class GpuMissingRule implements Rule {

    public static final String NAME = "GpuMissing";

    private final Duration silence;
    private final Duration fresh;

    /**
     * @param silence how long a card must be silent
     * @param fresh   how recent a neighbour's newest minute must be to show the node still reports
     */
    public GpuMissingRule(Duration silence, Duration fresh) {
        this.silence = silence;
        this.fresh = fresh;
    }

    @Override
    public String alertname() {
        return NAME;
    }

    @Override
    public Severity severity() {
        return Severity.CRITICAL;
    }

    @Override
    public String condition() {
        return "an occupied card silent for " + silence + " while another card of its node reported within " + fresh;
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        Instant silentSince = snapshot.now().minus(silence);
        Instant freshSince = snapshot.now().minus(fresh);
        Map<String, List<Card>> byNode = snapshot.cards().orElse(List.<Card>of()).stream()
                .collect(Collectors.groupingBy(Card::node));
        List<Finding> found = new ArrayList<>();
        byNode.forEach((node, cards) -> {
            boolean nodeReports = cards.stream().map(Card::lastReported)
                    .anyMatch(last -> last.isPresent() && !last.get().isBefore(freshSince));
            for (Card card : cards) {
                Optional<Instant> last = card.lastReported();
                if (nodeReports && last.isPresent() && last.get().isBefore(silentSince)) {
                    found.add(Finding.of(NAME, severity()).label(Finding.NODE, node).label(Finding.GPU_UUID, card.gpuUuid())
                            .describe("GPU " + card.gpuUuid() + " is missing from node " + node,
                                    "The card last reported at " + last.get() + " while the node's other cards still report. "
                                            + "Cordon the node and check nvidia-smi and the kernel log."));
                }
            }
        });
        return RuleResult.judge(NAME, found, Map.of("usage", snapshot.cards()));
    }
}
