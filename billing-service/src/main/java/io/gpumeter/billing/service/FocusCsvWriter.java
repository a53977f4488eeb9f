package io.gpumeter.billing.service;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.CostReport;
import io.gpumeter.billing.domain.FocusLabels;
import io.gpumeter.billing.domain.LineType;
import io.gpumeter.billing.domain.ModelName;
import io.gpumeter.billing.domain.ReportRow;
import io.gpumeter.common.csv.CsvCells;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Renders a report in the columns of the FinOps Open Cost and Usage Specification (FOCUS) version 1.1
 * (November 2024): one row per group and GPU model, RFC 4180 CSV with one header line, date-times in UTC as
 * YYYY-MM-DDTHH:mm:ssZ, absent values as empty cells. Column meanings as FOCUS 1.1 defines them:
 * <ul>
 *   <li>BilledCost: the amount invoiced for the billing period, here the allocated cost; EffectiveCost,
 *       ListCost and ContractedCost equal it, as internal rate cards have no discounts, commitments or
 *       amortization, and ListUnitPrice = ContractedUnitPrice = the rate per normalized GPU-hour.</li>
 *   <li>BillingPeriodStart/End: the report's period, inclusive start and exclusive end. ChargePeriodStart/End:
 *       when the hours were used, the report's period for usage, the corrected month for a correction.</li>
 *   <li>ChargeCategory "Usage"; ChargeClass "Correction" on a line that corrects a previously invoiced (closed)
 *       billing period, empty otherwise; ChargeFrequency "Usage-Based"; PricingCategory "Standard".</li>
 *   <li>ConsumedQuantity / PricingQuantity: allocated normalized GPU-hours; ConsumedUnit / PricingUnit
 *       "GPU-Hours".</li>
 *   <li>ResourceId / ResourceName / ResourceType: the GPU model (canonical key, as the ledger spells it, "GPU");
 *       ServiceCategory "Compute"; SubAccountId / SubAccountName: the group (tenant, team, project or
 *       namespace), also in Tags as {"&lt;dimension&gt;": "&lt;group&gt;"}.</li>
 *   <li>Columns that are not FOCUS's carry the x_ prefix FOCUS reserves for custom columns: the rate-card and
 *       normalization versions, the used / idle showback split and, when the report reconciles with fleet
 *       capacity, the unallocated share and total. The unallocated line has no sub-account, resource id or
 *       tags.</li>
 *   <li>Energy, last: the kWh the line's units drew (the unallocated line: what the cards drew while no unit held
 *       them), its cost and its kilograms of CO2e where the rate cards say so. FOCUS 1.1 has no energy or emission
 *       column, so they are custom columns too, named as FOCUS asks custom columns to be (Pascal case, no
 *       abbreviations) after all FOCUS columns.</li>
 * </ul>
 */
public final class FocusCsvWriter {

    /** The FOCUS version whose column names and values this writer prints. */
    public static final String FOCUS_VERSION = "1.1";
    public static final String GPU_HOURS = "GPU-Hours";

    public static final List<String> COLUMNS = List.of(
            "BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency", "BillingPeriodEnd",
            "BillingPeriodStart", "ChargeCategory", "ChargeClass", "ChargeDescription", "ChargeFrequency",
            "ChargePeriodEnd", "ChargePeriodStart", "ConsumedQuantity", "ConsumedUnit", "ContractedCost",
            "ContractedUnitPrice", "EffectiveCost", "InvoiceIssuerName", "ListCost", "ListUnitPrice",
            "PricingCategory", "PricingQuantity", "PricingUnit", "ProviderName", "PublisherName", "ResourceId",
            "ResourceName", "ResourceType", "ServiceCategory", "ServiceName", "SubAccountId", "SubAccountName",
            "Tags", "x_RateCardVersion", "x_NormalizationPolicy", "x_NormalizationVersion", "x_UsedGpuHours",
            "x_IdleGpuHours", "x_UsedCost", "x_IdleCost", "x_LineType", "x_CorrectsPeriod");

    /** Appended when the report reconciles with fleet capacity. */
    public static final List<String> SHARE_COLUMNS = List.of("x_UnallocatedShareCost", "x_TotalCost");

    /** Appended last, after the share columns when there are any (absent for a month closed without energy). */
    public static final List<String> ENERGY_COLUMNS = List.of("x_EnergyKilowattHours", "x_EnergyCost",
            "x_EmissionsKilogramsCo2e");

    private static final JsonFactory JSON = new JsonFactory();

    private FocusCsvWriter() {
    }

    public static byte[] write(CostReport report, FocusLabels labels) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            write(report, labels, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // an in-memory stream does not fail
        }
        return out.toByteArray();
    }

    /**
     * Writes row by row into {@code out} (UTF-8) and flushes it; {@code out} stays open. The report's rows must be
     * per group and model.
     */
    public static void write(CostReport report, FocusLabels labels, OutputStream out) throws IOException {
        List<String> columns = new ArrayList<>(COLUMNS);
        if (report.reconciled()) {
            columns.addAll(SHARE_COLUMNS);
        }
        if (report.energy()) {
            columns.addAll(ENERGY_COLUMNS);
        }
        CSVFormat format = CSVFormat.RFC4180.builder().setHeader(columns.toArray(String[]::new)).get();
        Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
        CSVPrinter printer = new CSVPrinter(writer, format);
        for (ReportRow row : report.rows()) {
            printer.printRecord(cells(report, labels, row));
        }
        printer.flush();
    }

    private static List<String> cells(CostReport report, FocusLabels labels, ReportRow row) {
        BillingPeriod billing = report.period();
        boolean correction = LineType.ADJUSTMENT.label().equals(row.lineType());
        boolean unallocated = LineType.UNALLOCATED.label().equals(row.lineType());
        BillingPeriod charge = correction ? row.corrects() : billing;
        String dimension = report.groupBy().dimension();
        String description = unallocated ? "unallocated fleet capacity on " + row.gpuModels()
                : (correction ? "Correction to " + row.corrects().label() + ": " : "")
                + "allocated normalized GPU-hours on " + row.gpuModels() + " for " + dimension + " " + row.group();
        // The unallocated line belongs to no group and may span several models.
        String subAccount = unallocated ? null : row.group();
        List<Object> values = new ArrayList<>(Arrays.asList(
                row.allocatedCost(), labels.billingAccountId(), labels.billingAccountName(), row.currency(),
                utc(billing.endInstant()), utc(billing.startInstant()),
                "Usage", correction ? "Correction" : null, description, "Usage-Based",
                utc(charge.endInstant()), utc(charge.startInstant()),
                row.allocatedGpuHours(), GPU_HOURS, row.allocatedCost(), row.rate(), row.allocatedCost(),
                labels.providerName(), row.allocatedCost(), row.rate(),
                "Standard", row.allocatedGpuHours(), GPU_HOURS, labels.providerName(), labels.providerName(),
                unallocated ? null : ModelName.normalise(row.gpuModels()), row.gpuModels(), "GPU",
                "Compute", labels.serviceName(), subAccount, subAccount,
                unallocated ? "{}" : tags(dimension, row.group()),
                row.rateCardVersion(), row.normalizationPolicy(), row.normalizationVersion(),
                row.usedGpuHoursShowback(), row.idleGpuHoursShowback(), row.usedCostShowback(),
                row.idleCostShowback(), row.lineType(), correction ? row.corrects().label() : null));
        if (report.reconciled()) {
            values.add(row.unallocatedShareCost());
            values.add(row.totalCost());
        }
        if (report.energy()) {
            values.add(row.energy().kWh());
            values.add(row.energy().cost());
            values.add(row.energy().co2eKg());
        }
        List<String> cells = new ArrayList<>(values.size());
        for (Object value : values) {
            if (value instanceof BigDecimal number) {
                cells.add(number.toPlainString());
            } else {
                cells.add(value == null ? "" : CsvCells.neutralise((String) value));
            }
        }
        return cells;
    }

    private static String utc(java.time.Instant instant) {
        return instant.toString();
    }

    /** A JSON object with the one key-value pair {dimension: group}. */
    private static String tags(String dimension, String group) {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(text)) {
            json.writeStartObject();
            json.writeStringField(dimension, group);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a string writer does not fail
        }
        return text.toString();
    }
}
