package io.gpumeter.billing.domain;

/**
 * The fixed names a FOCUS export prints on every row: who provides and invoices the GPU time, the billing account
 * and the service.
 */
public record FocusLabels(String providerName, String billingAccountId, String billingAccountName,
                          String serviceName) {

    public static final FocusLabels DEFAULT = new FocusLabels("gpumeter", "gpu-fleet", "GPU fleet", "GPU time");
}
