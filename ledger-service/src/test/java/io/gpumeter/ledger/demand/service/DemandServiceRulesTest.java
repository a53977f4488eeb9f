package io.gpumeter.ledger.demand.service;

import io.gpumeter.ledger.config.WorkloadClassConfig;
import io.gpumeter.ledger.demand.domain.WorkloadClass;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A bad workload-class rule stops the service naming the property to fix. */
class DemandServiceRulesTest {

    static WorkloadClassConfig.Rule rule(String owner, String label, String workloadClass) {
        return new WorkloadClassConfig.Rule() {
            @Override
            public Optional<String> owner() {
                return Optional.ofNullable(owner);
            }

            @Override
            public Optional<String> label() {
                return Optional.ofNullable(label);
            }

            @Override
            public String workloadClass() {
                return workloadClass;
            }
        };
    }

    static WorkloadClassConfig config(WorkloadClassConfig.Rule... rules) {
        return () -> List.of(rules);
    }

    @Test
    void rulesAreReadInIndexOrder() {
        var rules = DemandService.rules(config(rule("apps/Deployment", null, "inference"), rule(null, "tier=batch", "batch")));
        assertEquals(WorkloadClass.INFERENCE, rules.get(0).workloadClass());
        assertEquals("tier", rules.get(1).labelKey());
    }

    @Test
    void aBadRuleNamesItsProperty() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DemandService.rules(
                config(rule("apps/Deployment", null, "inference"), rule("Deployment", null, "inference"))));
        assertEquals("gpumeter.ledger.workload-classes.rules[1].owner: must be group/Kind such as apps/Deployment or "
                + "batch.volcano.sh/Job (core/Kind for the core group), got 'Deployment'", e.getMessage());
        IllegalArgumentException c = assertThrows(IllegalArgumentException.class,
                () -> DemandService.rules(config(rule("apps/Deployment", null, "serving"))));
        assertEquals("gpumeter.ledger.workload-classes.rules[0].class: must be one of inference, training, notebook, batch, "
                + "other, got 'serving'", c.getMessage());
    }
}
