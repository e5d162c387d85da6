package io.videoworld.connectors.esread;

import co.elastic.clients.elasticsearch._types.query_dsl.Operator;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import io.videoworld.core.ScreenTitles;
import java.util.ArrayList;
import java.util.List;

/**
 * Narrows a screen search to an application and/or a window title, as perception documents record
 * them ({@link ScreenTitles}): the application is compared in its normal form ("Mail", "mail" and
 * "M ail" are one), the title by its words, all of which must occur.
 *
 * @param app the application, or null
 * @param windowTitle words of the window title, or null
 */
public record ScreenFilter(String app, String windowTitle) {
    /** No narrowing. */
    public static final ScreenFilter NONE = new ScreenFilter(null, null);

    public boolean isEmpty() {
        return app == null && windowTitle == null;
    }

    /** The application's normal form, or null. */
    public String normalApp() {
        return app == null ? null : ScreenTitles.app(app);
    }

    /** The clauses a perception document must match. */
    List<Query> perceptionClauses() {
        List<Query> out = new ArrayList<>();
        if (app != null) {
            String a = normalApp() == null ? app : normalApp();
            out.add(Query.of(q -> q.term(t -> t.field("app").value(a))));
        }
        if (windowTitle != null) {
            out.add(Query.of(q -> q.match(m -> m.field("window_title").query(windowTitle).operator(Operator.And))));
        }
        return out;
    }
}
