package io.gpumeter.billing.service;

import io.gpumeter.billing.domain.ModelPlan;

import java.math.BigDecimal;
import java.util.List;

/**
 * The capacity plan as served: the history window and horizon, how the forecast is made, and one plan per GPU model.
 */
public record CapacityPlan(String asOf, String historyFrom, String historyTo, int historyDays, int horizonDays,
                           String method, BigDecimal margin, BigDecimal targetUtilization, BigDecimal intervalZ,
                           long queueWaitLineSeconds, int queueDays, List<ModelPlan> models) {
}
