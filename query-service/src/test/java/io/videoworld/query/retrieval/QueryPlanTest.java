package io.videoworld.query.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a search plan is read from a question's words and from a model's parse. */
class QueryPlanTest {
    @Test
    void timesInTheQuestionNarrowTheRange() {
        QueryPlan between = QueryPlan.fromQuestion("What was on screen between 1 and 2 min?");
        assertThat(between.from()).isEqualTo(60.0);
        assertThat(between.to()).isEqualTo(120.0);
        QueryPlan firstHalfMinute = QueryPlan.fromQuestion("Who came in during the first 30 seconds?");
        assertThat(firstHalfMinute.from()).isZero();
        assertThat(firstHalfMinute.to()).isEqualTo(30.0);
        QueryPlan at = QueryPlan.fromQuestion("What is on the table at 12 s?");
        assertThat(at.from()).isEqualTo(7.0);
        assertThat(at.to()).isEqualTo(17.0);
        assertThat(at.place()).isEqualTo("table");
        QueryPlan none = QueryPlan.fromQuestion("Where is the red mug?");
        assertThat(none.constrains()).isFalse();
        assertThat(none.searchText("Where is the red mug?")).isEqualTo("red mug");
    }

    @Test
    void firstAndLastOrderTheClipsButBothTogetherOrderNothing() {
        assertThat(QueryPlan.fromQuestion("When did I first open the invoice?").order()).isEqualTo("earliest");
        assertThat(QueryPlan.fromQuestion("Where did I put my keys last time?").order()).isEqualTo("latest");
        assertThat(QueryPlan.fromQuestion("What did I do just now?").order()).isEqualTo("latest");
        assertThat(QueryPlan.fromQuestion("What did I do first after the last meeting?").order()).isNull();
    }

    @Test
    void aPlaceIsAWordAfterInOnOrAtThatIsNotATimeWord() {
        assertThat(QueryPlan.fromQuestion("What was said in the kitchen?").place()).isEqualTo("kitchen");
        assertThat(QueryPlan.fromQuestion("What happened at the end?").place()).isNull();
        assertThat(QueryPlan.fromQuestion("What happened in the first 10 minutes?").place()).isNull();
        assertThat(QueryPlan.fromQuestion("What happened at 3 min?").place()).isNull();
    }

    @Test
    void theModelsParseGivesTriplesKeywordsAndConstraints() throws Exception {
        QueryPlan p = QueryPlan.fromParse(Json.MAPPER.readTree("{\"query_triple\": [\"Lucky\", \"reads\", \"book\"], \"keywords\": [\"book\"],"
                + " \"time_constraint\": \"just now\", \"spatial_constraint\": \"bedroom\", \"question_type\": \"location\"}"));
        assertThat(p.triples()).containsExactly(List.of("Lucky", "reads", "book"));
        assertThat(p.searchText("Where is the book?")).isEqualTo("Lucky reads book");
        assertThat(p.order()).isEqualTo("latest");
        assertThat(p.place()).isEqualTo("bedroom");
        assertThat(p.source()).isEqualTo("model");
        QueryPlan unknown = QueryPlan.fromParse(Json.MAPPER.readTree("{\"query_triples\": [[\"?\", \"?\", \"?\"]]}"));
        assertThat(unknown.searchText("Where is the book?")).isEqualTo("Where is the book?");
        QueryPlan seconds = QueryPlan.fromParse(Json.MAPPER.readTree("{\"time_constraint\": \"after 90 s\", \"spatial_constraint\": \"last time\"}"));
        assertThat(seconds.from()).isEqualTo(90.0);
        assertThat(seconds.order()).isEqualTo("latest");
        assertThat(seconds.place()).isNull();
    }
}
