package io.gpumeter.common.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one parse of a request's target: what the router will see, and every spelling that is not canonical. */
class RequestTargetTest {

    @ParameterizedTest(name = "{0} is under /api: {1}, canonical: {2}")
    @CsvSource(delimiter = '|', value = {
            "/api/v1/gpu-hours              | true  | true",
            "/api/v1/gpus/GPU-1%2F0/occupants | true | true",
            "//api/v1/gpu-hours             | true  | false",
            "/api//v1/gpu-hours             | true  | false",
            "/api/v1/gpu-hours/             | true  | false",
            "/./api/v1/gpu-hours            | true  | false",
            "/q/../api/v1/gpu-hours         | true  | false",
            "/q/%2e%2e/api/v1/gpu-hours     | true  | false",
            "/q/%2E./api/v1/gpu-hours       | true  | false",
            "/api;x=1/v1/gpu-hours          | true  | false",
            "/api/v1/gpu-hours;tenant=x     | true  | false",
            "/api/v1/gpu-hours%ZZ           | true  | false",
            "/api/v1/gpu-hours%C3           | true  | false",
            "/api/v1/../../q/health         | false | false",
            "/q/health                      | false | true",
            "/                              | false | true",
            "/apix/v1                       | false | true",
    })
    void pathsAreJudgedAsTheRouterResolvesThem(String path, boolean underApi, boolean canonical) {
        RequestTarget target = RequestTarget.parse(path, null);
        assertEquals(underApi, target.underApi(), target.normalizedPath());
        assertEquals(canonical, target.canonical(), String.valueOf(target.problem()));
    }

    @Test
    void queryNamesAndValuesAreDecodedAsAForm() {
        RequestTarget target = RequestTarget.parse("/api/v1/gpu-hours", "%54enant=a+b&x=%2B&tenant&Tenant=c&&y=");
        assertNull(target.problem());
        assertEquals(List.of("a b", "", "c"), target.values("tenant"));
        assertEquals(List.of("+"), target.values("x"));
        assertEquals(List.of(""), target.values("Y"));
        assertEquals("x=%2B&y=&tenant=acme", target.queryWithOnly("tenant", "acme"));
    }

    @Test
    void aBrokenEscapeInTheQueryIsNotCanonical() {
        assertTrue(RequestTarget.parse("/api/v1/gpu-hours", "tenant=%E2%82").problem().startsWith("the query"));
        assertTrue(RequestTarget.parse("/api/v1/gpu-hours", "tenant=%4").problem().startsWith("the query"));
    }
}
