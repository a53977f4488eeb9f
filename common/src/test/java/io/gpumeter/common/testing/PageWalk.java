package io.gpumeter.common.testing;

import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Follows a list's {@code Link: <…>; rel="next"} headers from a first page, checking on every page
 * {@code X-Total-Count}, that each page but the last is full and links on from where it ends, and that the last
 * links nowhere; the rows come back in the order the pages gave them.
 */
public final class PageWalk {

    private PageWalk() {
    }

    public static <K> List<K> walk(String first, long total, int limit, Function<ExtractableResponse<Response>, List<K>> keys) {
        List<K> out = new ArrayList<>();
        String url = first;
        long pages = 0;
        while (url != null) {
            ExtractableResponse<Response> page = given().urlEncodingEnabled(false).get(url).then().statusCode(200)
                    .header("X-Total-Count", String.valueOf(total)).extract();
            List<K> rows = keys.apply(page);
            out.addAll(rows);
            pages++;
            String link = page.header("Link");
            if (out.size() < total) {
                assertEquals(limit, rows.size(), "every page but the last is full");
                assertTrue(link != null && link.endsWith(">; rel=\"next\"") && link.contains("offset=" + out.size())
                        && link.contains("limit=" + limit), link);
                url = link.substring(link.indexOf('<') + 1, link.indexOf('>'));
            } else {
                assertNull(link, "the last page has no next link");
                url = null;
            }
            assertTrue(pages <= total / limit + 1, "the links end");
        }
        assertEquals(Math.max(1, (total + limit - 1) / limit), pages, "pages walked");
        return out;
    }
}
