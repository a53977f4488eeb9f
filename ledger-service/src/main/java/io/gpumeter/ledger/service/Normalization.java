package io.gpumeter.ledger.service;

import io.gpumeter.ledger.allocation.domain.AllocationDeriver;
import io.gpumeter.ledger.allocation.domain.NormalizationPolicy;
import io.gpumeter.ledger.allocation.domain.RequestDeriver;
import io.gpumeter.ledger.allocation.domain.UnitPlanner;
import io.gpumeter.ledger.allocation.domain.VgpuRule;
import io.gpumeter.ledger.config.AllocationConfig;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.dra.domain.ClaimHoldings;
import io.gpumeter.ledger.dra.domain.DraPlanner;
import io.gpumeter.ledger.hami.domain.HamiGrants;
import io.gpumeter.ledger.hami.domain.HamiResources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Builds the configured normalization policy and the derivers that apply it. */
@ApplicationScoped
public class Normalization {

    @Produces
    @Singleton
    NormalizationPolicy policy(LedgerConfig config) {
        AllocationConfig.Normalization n = config.normalization();
        return new NormalizationPolicy(n.version(), VgpuRule.parse(n.vgpuRule()), n.vgpuCoreWeight(),
                n.migDefaultSlices(), n.migSlices(), n.defaultCardMemoryMib().orElse(null));
    }

    @Produces
    @Singleton
    HamiResources hami(LedgerConfig config) {
        AllocationConfig.Hami h = config.hami();
        return new HamiResources(h.countResource(), h.memoryResource(), h.memoryPercentageResource(), h.coresResource(),
                h.defaultCores());
    }

    @Produces
    @Singleton
    RequestDeriver requests(NormalizationPolicy policy, HamiResources hami, LedgerConfig config) {
        return new RequestDeriver(new UnitPlanner(policy, hami), config.attribution().teamLabel(),
                config.attribution().projectLabel());
    }

    @Produces
    @Singleton
    AllocationDeriver deriver(NormalizationPolicy policy, HamiResources hami, LedgerConfig config) {
        return new AllocationDeriver(new UnitPlanner(policy, hami), new HamiGrants(hami),
                config.attribution().teamLabel(), config.attribution().projectLabel());
    }

    @Produces
    @Singleton
    ClaimHoldings claimHoldings(NormalizationPolicy policy) {
        return new ClaimHoldings(new DraPlanner(policy));
    }
}
