package io.gpumeter.billing.service;

import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.CostReport;
import io.gpumeter.billing.domain.ReportRow;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ReportCsvWriterTest {

    private static final BillingPeriod MARCH_BERLIN = BillingPeriod.of(YearMonth.of(2026, 3),
            ZoneId.of("Europe/Berlin"));

    private static ReportRow row(String group, String models, String policy) {
        return new ReportRow(MARCH_BERLIN.startText(), MARCH_BERLIN.endText(), group, models,
                new BigDecimal("1.500000"), new BigDecimal("2.000000"), "EUR", new BigDecimal("3.00"), "v-1",
                policy, "7", new BigDecimal("0.500000"), new BigDecimal("1.000000"), new BigDecimal("1.00"),
                new BigDecimal("2.00"));
    }

    @Test
    void quotesWhatRfc4180NeedsAndDefusesFormulas() {
        CostReport report = new CostReport(MARCH_BERLIN, GroupBy.PROJECT, List.of(
                row("a,b", "NVIDIA-L4", "MIG \"1g\" = 1/7"),
                row("-1+1", "NVIDIA-L4", "line one\nline two"),
                row("ünïcode", "+x", "=cmd|' /C calc'!A0")));
        String csv = new String(ReportCsvWriter.write(report), StandardCharsets.UTF_8);
        String period = "2026-03-01T00:00:00+01:00,2026-04-01T00:00:00+02:00,";
        assertEquals("period_start,period_end,project,gpu_models,allocated_gpu_hours,rate,currency,allocated_cost,"
                + "rate_card_version,normalization_policy,normalization_version,used_gpu_hours_showback,"
                + "idle_gpu_hours_showback,used_cost_showback,idle_cost_showback,line_type,corrects_period,energy_kwh,energy_cost,co2e_kg\r\n"
                + period + "\"a,b\",NVIDIA-L4,1.500000,2.000000,EUR,3.00,v-1,\"MIG \"\"1g\"\" = 1/7\",7,"
                + "0.500000,1.000000,1.00,2.00,usage,,0.000000,,\r\n"
                + period + "'-1+1,NVIDIA-L4,1.500000,2.000000,EUR,3.00,v-1,\"line one\nline two\",7,"
                + "0.500000,1.000000,1.00,2.00,usage,,0.000000,,\r\n"
                + period + "ünïcode,'+x,1.500000,2.000000,EUR,3.00,v-1,'=cmd|' /C calc'!A0,7,"
                + "0.500000,1.000000,1.00,2.00,usage,,0.000000,,\r\n", csv);
    }

    @Test
    void numbersArePlainDecimalsNeverExponents() {
        ReportRow tiny = new ReportRow("s", "e", "t", "m", new BigDecimal("0.000001"), new BigDecimal("0E-6"),
                "USD", new BigDecimal("0.00"), "v", "p", "n", new BigDecimal("0E-6"), new BigDecimal("0.000001"),
                new BigDecimal("0E-2"), new BigDecimal("0.00"));
        CostReport report = new CostReport(MARCH_BERLIN, GroupBy.TEAM, List.of(tiny));
        String csv = new String(ReportCsvWriter.write(report), StandardCharsets.UTF_8);
        assertEquals("s,e,t,m,0.000001,0.000000,USD,0.00,v,p,n,0.000000,0.000001,0.00,0.00,usage,,0.000000,,\r\n",
                csv.substring(csv.indexOf("\r\n") + 2));
        String json = new String(ReportJsonWriter.write(report), StandardCharsets.UTF_8);
        assertEquals("[{\"period_start\":\"s\",\"period_end\":\"e\",\"team\":\"t\",\"gpu_models\":\"m\","
                + "\"allocated_gpu_hours\":0.000001,\"rate\":0.000000,\"currency\":\"USD\",\"allocated_cost\":0.00,"
                + "\"rate_card_version\":\"v\",\"normalization_policy\":\"p\",\"normalization_version\":\"n\","
                + "\"used_gpu_hours_showback\":0.000000,\"idle_gpu_hours_showback\":0.000001,"
                + "\"used_cost_showback\":0.00,\"idle_cost_showback\":0.00,\"line_type\":\"usage\",\"corrects_period\":null,\"energy_kwh\":0.000000,\"energy_cost\":null,\"co2e_kg\":null}]",
                json);
    }
}
