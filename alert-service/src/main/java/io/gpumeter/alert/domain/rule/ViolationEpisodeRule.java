package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;
import io.gpumeter.alert.domain.ViolationEpisode;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An alert on the ledger's violation episodes of some kinds that last, or ended within {@code recent}. */
abstract class ViolationEpisodeRule implements Rule {

    private final String name;
    private final List<String> kinds;
    private final Duration recent;

    ViolationEpisodeRule(String name, List<String> kinds, Duration recent) {
        this.name = name;
        this.kinds = List.copyOf(kinds);
        this.recent = recent;
    }

    @Override
    public String alertname() {
        return name;
    }

    @Override
    public Severity severity() {
        return Severity.WARNING;
    }

    @Override
    public String condition() {
        return "a " + String.join(" or ", kinds) + " violation episode lasting, or ended within " + recent;
    }

    /**
     * The alert one episode raises.
     *
     * @param nodes   the node of each occupied card
     * @param tenants the tenant of each namespace holding a card
     */
    abstract Finding finding(ViolationEpisode episode, Map<String, String> nodes, Map<String, String> tenants);

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        Instant since = snapshot.now().minus(recent);
        Map<String, String> nodes = snapshot.nodeOfCard();
        Map<String, String> tenants = snapshot.tenantOfNamespace();
        Map<String, Finding> found = new LinkedHashMap<>();
        for (ViolationEpisode v : snapshot.violations().orElse(List.of())) {
            if (kinds.contains(v.kind()) && v.lastsInto(since)) {
                Finding f = finding(v, nodes, tenants);
                found.putIfAbsent(f.fingerprint(), f);
            }
        }
        return RuleResult.judge(name, List.copyOf(found.values()),
                Map.of("violations", snapshot.violations(), "usage", snapshot.cards()));
    }
}
