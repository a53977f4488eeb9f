package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.List;

/**
 * slo-service's capacity plan ({@code GET /api/v1/capacity/plan}) as the Capacity page binds it: per GPU model the
 * usable cards against the cards its demand shapes need on the horizon's busiest day, the base and each margin, and
 * per shape the rule it was planned by and its commitment. Every figure is the plan's.
 */
@RegisterForReflection
record CapacityPlan(String at, List<Model> models) {

    /** One model's plan; {@code gap} below zero is cards short. */
    @TemplateData
    @RegisterForReflection
    record Model(String model, Supply supply, Margins margins, Cards cardsNeeded, Gap gap, String summary, List<Shape> shapes) {

        public boolean isShort() {
            return gap != null && gap.cards() != null && gap.cards().signum() < 0;
        }
    }

    /** The inventory's cards of the model: cordoned and failed ones are not usable. */
    @TemplateData
    @RegisterForReflection
    record Supply(int cards, int cordoned, int failed, int usable) {
    }

    @TemplateData
    @RegisterForReflection
    record Margins(Margin jitter, Margin failures, Margin peaks) {
    }

    /** A margin's applied share, and whether it was measured or is the configured floor. */
    @TemplateData
    @RegisterForReflection
    record Margin(BigDecimal applied, String source) {
    }

    /** Cards needed: the demand's base and each margin's share, their total and its range. */
    @TemplateData
    @RegisterForReflection
    record Cards(BigDecimal base, BigDecimal jitter, BigDecimal failures, BigDecimal peaks, BigDecimal total, BigDecimal low,
                 BigDecimal high) {
    }

    @TemplateData
    @RegisterForReflection
    record Gap(BigDecimal cards, BigDecimal low, BigDecimal high) {
    }

    /** One demand shape's commitment: what a card delivers under its SLO, the forecast, the cards it needs. */
    @TemplateData
    @RegisterForReflection
    record Shape(String workloadClass, String shape, Service service, Slo slo, String rule, Deliverable deliverable,
                 Demand demand, Cards cardsNeeded, Gap gap, BigDecimal queueWaitCeilingSeconds, Degrade degradesFirst) {
    }

    @TemplateData
    @RegisterForReflection
    record Service(String namespace, String name) {
    }

    @TemplateData
    @RegisterForReflection
    record Slo(String name, String sli, BigDecimal thresholdMs) {
    }

    /** Per GPU, as measured and as committed with the margins held back, and how it was measured. */
    @TemplateData
    @RegisterForReflection
    record Deliverable(BigDecimal perGpu, BigDecimal committedPerGpu, String unit, String basis) {
    }

    @TemplateData
    @RegisterForReflection
    record Demand(BigDecimal forecast, String unit, String forecastDay, int daysFitted) {
    }

    @TemplateData
    @RegisterForReflection
    record Degrade(String policy) {
    }
}
