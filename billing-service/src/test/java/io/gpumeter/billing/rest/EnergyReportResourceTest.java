package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Energy on the bill: June 2025 from the fake ledger (LedgerAnswers.june), priced with two dated cards.
 * <pre>
 * e-june-a from 1 June: 2.00 per GPU-hour; energy 0.20 per kWh, 400 g CO2e per kWh in every cluster.
 * e-june-b from 16 June: 2.00 per GPU-hour; energy 0.10 per kWh and 50 g/kWh, but eu-1 0.25 per kWh and 300 g/kWh.
 *
 * acme: hours 100 + 50 + 10 = 160, x 2.00 = 320.00; used 40 + 50 = 90 h, 180.00; idle 70 h, 140.00.
 *       energy 70.4321 (1-16 June) + 40 (eu-1) + 2.5 (lab) = 112.9321 kWh;
 *       cost 70.4321 x 0.20 = 14.08642, 40 x 0.25 = 10.00, 2.5 x 0.10 = 0.25: 24.33642 -> 24.34;
 *       CO2e 70.4321 x 400 = 28172.84 g, 40 x 300 = 12000 g, 2.5 x 50 = 125 g: 40297.84 g -> 40.298 kg.
 * beta: hours 20 + 4 = 24, 48.00; used 14 h, 28.00; idle 10 h, 20.00.
 *       energy 8.25 + 3.125 = 11.375 kWh; cost 1.65 + 0.3125 = 1.9625 -> 1.96; CO2e 3300 + 156.25 = 3456.25 g -> 3.456 kg.
 * The cards' idle energy, on the unallocated line: 1-16 June 30 + 5 = 35 kWh at 0.20 and 400 g = 7.00, 14000 g;
 *       16 June on eu-1 12 kWh at 0.25 and 300 g = 3.00, 3600 g; lab 6.4 kWh at 0.10 and 50 g = 0.64, 320 g.
 *       53.4 kWh, 10.64, 17.920 kg.
 * Capacity: H100 300 + 150 card-hours, L40S 30 + 10, all at 2.00: 490 h, 980.00; unallocated 490 - 184 = 306 h, 612.00.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // June is closed once, then corrected
class EnergyReportResourceTest {

    private static final String CARDS = "/api/v1/rate-cards";
    private static final String MONTHLY = "/api/v1/reports/monthly";
    private static final String POLICY = ",\"" + LedgerAnswers.POLICY + "\",norm-2026.1,";
    private static final String JUNE = "2025-06-01T00:00:00Z,2025-07-01T00:00:00Z,";
    private static final String CARD_A = """
            {"version":"e-june-a","effectiveFrom":"2025-06-01T00:00:00Z","defaultRate":2.00,
             "energyPricePerKWh":0.20,"gramsCo2ePerKWh":400}""";
    private static final String CARD_B = """
            {"version":"e-june-b","effectiveFrom":"2025-06-16T00:00:00Z","defaultRate":2.00,
             "energyPricePerKWh":0.10,"gramsCo2ePerKWh":50,
             "clusters":{"eu-1":{"energyPricePerKWh":0.25,"gramsCo2ePerKWh":300}}}""";

    private static final String ACME = JUNE + "acme,NVIDIA-H100-80GB-HBM3,160.000000,2.000000,USD,320.00,e-june-a;e-june-b"
            + POLICY + "90.000000,70.000000,180.00,140.00,usage,";
    private static final String BETA = JUNE + "beta,NVIDIA L40S,24.000000,2.000000,USD,48.00,e-june-a;e-june-b"
            + POLICY + "14.000000,10.000000,28.00,20.00,usage,";
    static final String JUNE_BY_TENANT = MonthlyReportResourceTest.HEADER
            + ACME + ",112.932100,24.34,40.298\r\n"
            + BETA + ",11.375000,1.96,3.456\r\n";
    private static final String JUNE_RECONCILED = ReconciliationResourceTest.SHARE_HEADER
            + ACME + ",0.00,320.00,112.932100,24.34,40.298\r\n"
            + BETA + ",0.00,48.00,11.375000,1.96,3.456\r\n"
            + JUNE + "(unallocated capacity),NVIDIA-H100-80GB-HBM3;NVIDIA-L40S,306.000000,2.000000,USD,612.00,"
            + "e-june-a;e-june-b" + POLICY + "0.000000,306.000000,0.00,612.00,unallocated,,0.00,612.00,53.400000,10.64,17.920\r\n";

    @Inject
    Pool pool;

    @AfterEach
    void removeStoredCards() {
        List<String> versions = given().get(CARDS).then().statusCode(200).extract().jsonPath().getList("version");
        versions.forEach(v -> given().delete(CARDS + "/" + v).then().statusCode(204));
    }

    private static void store(String card) {
        given().contentType(ContentType.JSON).body(card).post(CARDS).then().statusCode(201);
    }

    private static Response june(String format, String share) {
        var request = given().queryParam("month", "2025-06").queryParam("format", format);
        if (share != null) {
            request.queryParam("share", share);
        }
        return request.get(MONTHLY).then().statusCode(200).extract().response();
    }

    @Test
    @Order(1)
    void aMonthWithAnEnergyPriceChangeMidMonthPricesEachStretchsKilowattHoursWithItsCard() {
        store(CARD_A);
        store(CARD_B);
        given().get(CARDS + "/e-june-b").then().statusCode(200)
                .body("energyPricePerKWh", org.hamcrest.Matchers.equalTo(0.10f))
                .body("gramsCo2ePerKWh", org.hamcrest.Matchers.equalTo(50))
                .body("clusters.eu-1.energyPricePerKWh", org.hamcrest.Matchers.equalTo(0.25f))
                .body("clusters.eu-1.gramsCo2ePerKWh", org.hamcrest.Matchers.equalTo(300));

        assertEquals(JUNE_BY_TENANT, june("csv", null).asString());
        assertTrue(june("json", null).asString().contains("\"line_type\":\"usage\",\"corrects_period\":null,"
                + "\"energy_kwh\":112.932100,\"energy_cost\":24.34,\"co2e_kg\":40.298}"), "JSON carries the same numbers");
        // The idle energy belongs to the unallocated line, as the capacity no grant held does.
        assertEquals(JUNE_RECONCILED, june("csv", "none").asString());

        String[] focus = june("focus", null).asString().split("\r\n");
        assertTrue(focus[0].endsWith(",x_LineType,x_CorrectsPeriod,x_EnergyKilowattHours,x_EnergyCost,"
                + "x_EmissionsKilogramsCo2e"), focus[0]);
        assertEquals(3, focus.length);
        assertTrue(focus[1].startsWith("320.00,") && focus[1].endsWith(",usage,,112.932100,24.34,40.298"), focus[1]);
        assertTrue(focus[2].startsWith("48.00,") && focus[2].endsWith(",usage,,11.375000,1.96,3.456"), focus[2]);
        String unallocated = june("focus", "none").asString().lines().reduce((a, b) -> b).orElseThrow();
        assertTrue(unallocated.endsWith(",unallocated,,0.00,612.00,53.400000,10.64,17.920"), unallocated);
    }

    @Test
    @Order(2)
    void aClosedMonthsEnergyNeverChangesAfterTheRateCardsDo() {
        store(CARD_A);
        store(CARD_B);
        Response open = june("csv", null);
        assertEquals(JUNE_BY_TENANT, open.asString());
        given().post(MONTHLY + "/2025-06/close").then().statusCode(201);

        // A new price for eu-1 and everything else from the 10th, and the card of the 16th gone: the open month
        // would now be priced differently, the closed one is not.
        given().delete(CARDS + "/e-june-b").then().statusCode(204);
        store("""
                {"version":"e-june-c","effectiveFrom":"2025-06-10T00:00:00Z","defaultRate":7.00,
                 "energyPricePerKWh":9.99,"gramsCo2ePerKWh":999,"clusters":{"eu-1":{"energyPricePerKWh":5}}}""");
        Response closed = june("csv", null);
        assertEquals(JUNE_BY_TENANT, closed.asString());
        assertEquals(open.header("X-Content-SHA256"), closed.header("X-Content-SHA256"));
        assertEquals(JUNE_RECONCILED, june("csv", "none").asString(), "the idle energy is frozen with its cards");
        String[] focus = june("focus", null).asString().split("\r\n");
        assertTrue(focus[1].endsWith(",usage,,112.932100,24.34,40.298"), focus[1]);
    }

    @Test
    @Order(3)
    void energyTheLedgerLearnsLaterIsAnAdjustmentPricedWithTheClosedMonthsCards() {
        LedgerStandIn.correctJuneEnergy();
        assertEquals(JUNE_BY_TENANT, june("csv", null).asString(), "a closed month never changes");
        /*
         * acme's eu-1 energy after the 16th is now 44 kWh, not 40: +4 kWh at June's frozen e-june-b eu-1 terms,
         * 4 x 0.25 = 1.00 and 4 x 300 g = 1.200 kg; its hours are unchanged, so the line carries energy only.
         */
        String july = given().queryParam("month", "2025-07").get(MONTHLY).then().statusCode(200).extract().asString();
        assertEquals(MonthlyReportResourceTest.HEADER + "2025-07-01T00:00:00Z,2025-08-01T00:00:00Z,acme,"
                + "NVIDIA-H100-80GB-HBM3,0.000000,2.000000,USD,0.00,e-june-b" + POLICY
                + "0.000000,0.000000,0.00,0.00,adjustment,2025-06,4.000000,1.00,1.200\r\n", july);
    }

    @Test
    @Order(4)
    void aMonthClosedBeforeEnergyWasRecordedKeepsItsColumnsAndIsNotCorrectedForEnergy() {
        // February 2024 as a close before energy stored it: no energy_recorded, no energy on its line.
        pool.query("""
                INSERT INTO billing.closed_month (month, period_start, period_end, zone, currency, normalization_policy,
                    normalization_version, closed_at)
                VALUES ('2024-02', '2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z', 'Z', 'USD', 'p-old', 'n-old',
                    '2024-03-02T00:00:00Z');
                INSERT INTO billing.closed_stretch (month, seq, stretch_start, stretch_end, rate_card_version,
                    default_rate, models, rates)
                VALUES ('2024-02', 0, '2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z', 'old-1', 1.50, '{}', '{}');
                INSERT INTO billing.closed_line (month, line_type, corrects, stretch_seq, tenant, team, project,
                    namespace, model, allocated_gpu_hours, used_gpu_hours, rate, allocated_cost, used_cost)
                VALUES ('2024-02', 'usage', '2024-02', 0, 'acme', 't-acme', 'p-acme', 'ns-acme',
                    'NVIDIA-H100-80GB-HBM3', 10, 4, 1.50, 15, 6)""").executeAndAwait();
        String old = MonthlyReportResourceTest.HEADER.replace(",energy_kwh,energy_cost,co2e_kg", "");
        assertEquals(old + "2024-02-01T00:00:00Z,2024-03-01T00:00:00Z,acme,NVIDIA-H100-80GB-HBM3,10.000000,1.500000,"
                        + "USD,15.00,old-1,p-old,n-old,4.000000,6.000000,6.00,9.00,usage,\r\n",
                given().queryParam("month", "2024-02").get(MONTHLY).then().statusCode(200).extract().asString());
        assertTrue(given().queryParam("month", "2024-02").queryParam("format", "focus").get(MONTHLY).then()
                .statusCode(200).extract().asString().startsWith(FocusExportResourceTest.HEADER
                        .replace(",x_EnergyKilowattHours,x_EnergyCost,x_EmissionsKilogramsCo2e", "")));
        // The ledger now tells February's hours as billed, with 9 kWh: energy it never billed is no correction.
        assertEquals(MonthlyReportResourceTest.HEADER,
                given().queryParam("month", "2024-03").get(MONTHLY).then().statusCode(200).extract().asString());
    }
}
