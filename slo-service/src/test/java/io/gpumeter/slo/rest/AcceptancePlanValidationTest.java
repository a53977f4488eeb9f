package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;

/** Every bad plan is a 400 problem naming the field at fault, and nothing is stored for it. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class AcceptancePlanValidationTest {

    private static final String CELLS = "\"cells\": [{\"name\": \"dedicated\", \"workload\": \"vllm-chat\", \"form\":"
            + " \"DEDICATED\", \"selector\": {\"service\": \"chat-dedicated\"}}, {\"name\": \"hami-2\", \"workload\":"
            + " \"vllm-chat\", \"form\": \"HAMI\", \"selector\": {\"service\": \"chat-hami\"}}]";
    private static final String WINDOW = "\"name\": \"p\", \"from\": \"2026-11-02T10:00:00Z\", \"to\":"
            + " \"2026-11-02T12:00:00Z\"";

    /** A plan with one part replaced: {@code $A} stands for the assertions, each row's last column is the field. */
    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "[]|name|{\"from\": \"2026-11-02T10:00:00Z\", \"to\": \"2026-11-02T12:00:00Z\", CELLS, \"assertions\": $A}",
            "[]|from|{\"name\": \"p\", \"from\": \"yesterday\", \"to\": \"2026-11-02T12:00:00Z\", CELLS, \"assertions\": $A}",
            "[]|to|{\"name\": \"p\", \"from\": \"2026-11-02T10:00:00Z\", \"to\": \"2026-11-02T09:00:00Z\", CELLS, \"assertions\": $A}",
            "[]|to|{\"name\": \"p\", \"from\": \"2026-11-02T10:00:00Z\", \"to\": \"2026-12-02T09:00:00Z\", CELLS, \"assertions\": $A}",
            "[]|cells|{WINDOW, \"cells\": [], \"assertions\": $A}",
            "[]|cells[0].form|{WINDOW, \"cells\": [{\"name\": \"a\", \"workload\": \"w\", \"form\": \"SHARED\", \"selector\": {\"service\": \"s\"}}], \"assertions\": $A}",
            "[]|cells[0].selector|{WINDOW, \"cells\": [{\"name\": \"a\", \"workload\": \"w\", \"form\": \"MIG\", \"selector\": {}}], \"assertions\": $A}",
            "[]|cells[0].workload|{WINDOW, \"cells\": [{\"name\": \"a\", \"form\": \"MIG\", \"selector\": {\"service\": \"s\"}}], \"assertions\": $A}",
            "[]|cells[0].name|{WINDOW, \"cells\": [{\"name\": \"Cell A\", \"workload\": \"w\", \"form\": \"MIG\", \"selector\": {\"service\": \"s\"}}], \"assertions\": $A}",
            "[]|cells[1].name|{WINDOW, \"cells\": [{\"name\": \"a\", \"workload\": \"w\", \"form\": \"MIG\", \"selector\": {\"service\": \"s\"}}, {\"name\": \"a\", \"workload\": \"w\", \"form\": \"MIG\", \"selector\": {\"service\": \"t\"}}], \"assertions\": $A}",
            "[]|assertions|{WINDOW, CELLS, \"assertions\": []}",
            "[{\"name\": \"x\", \"kind\": \"AVERAGE\", \"metric\": \"P99\", \"sli\": \"TTFT\", \"cell\": \"dedicated\", \"maxMs\": 300}]|assertions[0].kind|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"P42\", \"sli\": \"TTFT\", \"cell\": \"dedicated\", \"maxMs\": 300}]|assertions[0].metric|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"P99\", \"cell\": \"dedicated\", \"maxMs\": 300}]|assertions[0].sli|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"P99\", \"sli\": \"TTFT\", \"cell\": \"nowhere\", \"maxMs\": 300}]|assertions[0].cell|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"P99\", \"sli\": \"TTFT\", \"cell\": \"dedicated\"}]|assertions[0].maxMs|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"P99\", \"sli\": \"TTFT\", \"cell\": \"dedicated\", \"maxMs\": -3}]|assertions[0].maxMs|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"P99\", \"sli\": \"TTFT\", \"cell\": \"dedicated\", \"max\": 3}]|assertions[0].max|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"FAILURE_RATE\", \"cell\": \"dedicated\", \"maxMs\": 3}]|assertions[0].maxMs|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"FAILURE_RATE\", \"cell\": \"dedicated\", \"max\": \"low\"}]|assertions[0].max|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"P99_SPREAD\", \"cell\": \"dedicated\", \"maxMs\": 50}]|assertions[0].sli|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"P99_SPREAD\", \"sli\": \"TTFT\", \"cell\": \"dedicated\", \"max\": 50}]|assertions[0].max|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"P99_SPREAD\", \"sli\": \"AVAILABILITY\", \"cell\": \"dedicated\", \"maxMs\": 50}]|assertions[0].sli|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"COLD_START\", \"cell\": \"dedicated\", \"maxMs\": 60000}]|assertions[0].maxMs|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"COLD_START\", \"cell\": \"nowhere\", \"max\": 60}]|assertions[0].cell|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"MTTR\", \"cell\": \"dedicated\"}]|assertions[0].max|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"MTTR\", \"cell\": \"dedicated\", \"max\": -300}]|assertions[0].max|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"JITTER_EVENT_RATE\", \"cell\": \"dedicated\", \"max\": \"often\"}]|assertions[0].max|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"RATIO\", \"metric\": \"JITTER_EVENT_RATE\", \"cell\": \"hami-2\", \"baselineCell\": \"dedicated\"}]|assertions[0].maxRatio|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"TOKENS_PER_JOULE\", \"cell\": \"dedicated\", \"maxMs\": 1}]|assertions[0].maxMs|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"TOKENS_PER_JOULE\", \"cell\": \"dedicated\"}]|assertions[0].min|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"JOULES_PER_TOKEN\", \"cell\": \"dedicated\", \"min\": 1}]|assertions[0].metric|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"RATIO\", \"metric\": \"P99\", \"sli\": \"TTFT\", \"cell\": \"hami-2\", \"maxRatio\": 1.5}]|assertions[0].baselineCell|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"RATIO\", \"metric\": \"P99\", \"sli\": \"TTFT\", \"cell\": \"hami-2\", \"baselineCell\": \"hami-2\", \"maxRatio\": 1.5}]|assertions[0].baselineCell|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"RATIO\", \"metric\": \"P99\", \"sli\": \"TTFT\", \"cell\": \"hami-2\", \"baselineCell\": \"dedicated\"}]|assertions[0].maxRatio|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"BLOCKED\", \"pod\": \"overquota-0\", \"within\": \"PT5M\"}]|assertions[0].namespace|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"BLOCKED\", \"namespace\": \"team-x\", \"within\": \"PT5M\"}]|assertions[0].pod|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"BLOCKED\", \"namespace\": \"team-x\", \"pod\": \"p\", \"within\": \"five minutes\"}]|assertions[0].within|{WINDOW, CELLS, \"assertions\": $A}",
            "[{\"name\": \"x\", \"kind\": \"BLOCKED\", \"namespace\": \"team-x\", \"pod\": \"p\", \"within\": \"PT5M\"}, {\"name\": \"x\", \"kind\": \"BLOCKED\", \"namespace\": \"team-x\", \"pod\": \"q\", \"within\": \"PT5M\"}]|assertions[1].name|{WINDOW, CELLS, \"assertions\": $A}",
            "[]|plan|[1, 2]",
            "[]|plan|{\"name\": ",
    })
    void aBadPlanIsA400NamingTheField(String assertions, String field, String template) {
        String body = template.replace("CELLS", CELLS).replace("WINDOW", WINDOW).replace("$A", assertions);
        int before = given().get("/api/v1/acceptance/runs").then().statusCode(200).extract().jsonPath().getList("$").size();
        given().contentType(ContentType.JSON).body(body).post("/api/v1/acceptance/runs")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo(field))
                .body("detail", not(containsString("Exception")));
        given().get("/api/v1/acceptance/runs").then().statusCode(200).body("size()", equalTo(before));
    }

    private static final String YAML_CELLS = """
            cells:
              - name: dedicated
                workload: vllm-chat
                form: DEDICATED
                selector: {service: chat-dedicated}
              - name: hami-2
                workload: vllm-chat
                form: HAMI
                selector: {service: chat-hami}
            """;
    private static final String YAML_WINDOW = """
            name: p
            from: 2026-11-02T10:00:00Z
            to: 2026-11-02T12:00:00Z
            """;
    private static final String YAML_CLAUSE = """
            assertions:
              - name: hami-2 within 1.5x
                kind: RATIO
                metric: P99
                sli: TTFT
                cell: hami-2
                baselineCell: dedicated
                maxRatio: 1.5
            """;

    /** A "billion laughs": nine levels of ten aliases each, a billion strings if the aliases were ever expanded. */
    static String billionLaughs() {
        StringBuilder yaml = new StringBuilder("lol0: &lol0 [\"lol\"]\n");
        for (int i = 1; i <= 9; i++) {
            yaml.append("lol").append(i).append(": &lol").append(i).append(" [");
            for (int j = 0; j < 10; j++) {
                yaml.append(j == 0 ? "" : ", ").append("*lol").append(i - 1);
            }
            yaml.append("]\n");
        }
        return yaml + YAML_WINDOW + YAML_CELLS + YAML_CLAUSE;
    }

    static Stream<Arguments> badYaml() {
        return Stream.of(
                Arguments.of("a key given twice", "name: p\n" + YAML_WINDOW + YAML_CELLS + YAML_CLAUSE, "name"),
                Arguments.of("a key given twice inside a cell", YAML_WINDOW + YAML_CELLS.replace(
                        "form: HAMI\n", "form: HAMI\n    form: MIG\n") + YAML_CLAUSE, "cells[1].form"),
                Arguments.of("cells as text", YAML_WINDOW + "cells: dedicated and hami-2\n" + YAML_CLAUSE, "cells"),
                Arguments.of("a ratio as text", YAML_WINDOW + YAML_CELLS + YAML_CLAUSE.replace("1.5", "lots"),
                        "assertions[0].maxRatio"),
                Arguments.of("a name as a list", YAML_WINDOW.replace("name: p", "name: [p, q]") + YAML_CELLS
                        + YAML_CLAUSE, "name"),
                Arguments.of("a form as a number", YAML_WINDOW + YAML_CELLS.replace("form: HAMI", "form: 7")
                        + YAML_CLAUSE, "cells[1].form"),
                Arguments.of("an instant that is not one", YAML_WINDOW.replace("from: 2026-11-02T10:00:00Z",
                        "from: yesterday") + YAML_CELLS + YAML_CLAUSE, "from"),
                Arguments.of("a billion laughs", billionLaughs(), "lol0"),
                Arguments.of("an anchor on a cell", YAML_WINDOW + YAML_CELLS.replace("  - name: hami-2",
                        "  - &h name: hami-2") + YAML_CLAUSE, "cells[1].name"),
                Arguments.of("an alias for a value", YAML_WINDOW + YAML_CELLS + YAML_CLAUSE.replace("cell: hami-2",
                        "cell: *somewhere"), "assertions[0].cell"),
                Arguments.of("a merge key", YAML_WINDOW + YAML_CELLS.replace("    selector: {service: chat-hami}",
                        "    <<: *base") + YAML_CLAUSE, "cells[1].<<"),
                Arguments.of("an unclosed flow mapping", YAML_WINDOW + "cells: [{name: a\n" + YAML_CLAUSE, "plan"),
                Arguments.of("a list, not a mapping", "- name: p\n- from: x\n", "plan"),
                Arguments.of("nesting past the bound", YAML_WINDOW + YAML_CELLS + "assertions: " + "[".repeat(40)
                        + "]".repeat(40) + "\n", "plan"),
                Arguments.of("an empty body", "", "plan"),
                Arguments.of("tabs for indentation", YAML_WINDOW + "cells:\n\t- name: a\n" + YAML_CLAUSE, "plan"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badYaml")
    void aBadYamlPlanIsA400NamingTheField(String what, String yaml, String field) {
        int before = given().get("/api/v1/acceptance/runs").then().statusCode(200).extract().jsonPath().getList("$").size();
        given().contentType("application/yaml").body(yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8)).post("/api/v1/acceptance/runs")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo(field))
                .body("detail", not(containsString("Exception")))
                .body("detail", not(containsString("snakeyaml")))
                .body("detail", not(containsString("jackson")));
        given().get("/api/v1/acceptance/runs").then().statusCode(200).body("size()", equalTo(before));
    }

    @org.junit.jupiter.api.Test
    void aYamlPlanIsReadAsItsJsonIs() {
        given().contentType("application/yaml; charset=utf-8").body((YAML_WINDOW + YAML_CELLS + YAML_CLAUSE).getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .post("/api/v1/acceptance/runs")
                .then().statusCode(201)
                .body("name", equalTo("p"))
                .body("from", equalTo("2026-11-02T10:00:00Z"))
                .body("cells.name", equalTo(java.util.List.of("dedicated", "hami-2")))
                .body("assertions[0].kind", equalTo("RATIO"))
                .body("assertions[0].limit", equalTo(1.5f));
    }
}
