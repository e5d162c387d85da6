package io.videoworld.engines.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.videoworld.core.ActivityDoc;
import io.videoworld.core.EpisodeDoc;
import io.videoworld.core.GraphDoc;
import io.videoworld.core.TrackDoc;
import io.videoworld.core.TrackPoint;
import io.videoworld.core.TranscriptDoc;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryGraphTest {
    private static EpisodeDoc episode(String type, String app, String summary, List<String> labels, List<String> links, long revision, boolean deleted) {
        return new EpisodeDoc("g-desk", 1_000L, 3, revision, type, "user", 5_000, 9_000, 4_000, 8_000, app, summary, "", labels, links, 1, null,
                "rules", false, deleted);
    }

    @Test
    void aScreenEventGivesUsesAndOpensEdgesWithItsClipAndTimeRange() {
        EpisodeDoc e = episode("screen_activity", "gedit", "Using notes.md - gedit: buy milk; call Anna", List.of(), List.of("g-desk:e:000001"), 2, false);
        List<GraphDoc> g = MemoryGraph.fromEpisode(e);
        assertThat(g).extracting(GraphDoc::id).containsExactly("g-desk:e:000003:g", "g-desk:e:000003:g:uses", "g-desk:g:app:gedit",
                "g-desk:e:000003:g:opens", "g-desk:g:document:notes.md", "g-desk:e:000003:g:returns_to:g-desk:e:000001");
        GraphDoc opens = g.get(3);
        assertThat(opens.kind()).isEqualTo("opens");
        assertThat(opens.level()).isEqualTo(GraphDoc.LOW);
        assertThat(opens.targetLabel()).isEqualTo("notes.md");
        assertThat(opens.clipId()).isEqualTo("g-desk:e:000003");
        assertThat(opens.startMs()).isEqualTo(4_000);
        assertThat(opens.endMs()).isEqualTo(8_000);
        assertThat(opens.progress()).isEqualTo(2);
        assertThat(g.get(5).level()).isEqualTo(GraphDoc.HIGH);
        assertThat(MemoryGraph.fromEpisode(e)).as("the same record, the same documents").isEqualTo(g);
    }

    @Test
    void aSiteInTheTitleIsVisitedAndATitleWithoutFileOrSiteNamesNeither() {
        List<GraphDoc> g = MemoryGraph.fromEpisode(episode("screen_activity", "firefox", "Using https://www.example.org/news - Mozilla Firefox: News",
                List.of(), List.of(), 1, false));
        assertThat(g).extracting(GraphDoc::kind).contains("visits");
        assertThat(g).filteredOn(d -> d.kind().equals("visits")).extracting(GraphDoc::targetLabel).containsExactly("www.example.org");
        List<GraphDoc> plain = MemoryGraph.fromEpisode(episode("screen_activity", "mail", "Using Inbox - Mail: hello", List.of(), List.of(), 1, false));
        assertThat(plain).extracting(GraphDoc::kind).containsExactly("episode", "uses", "app");
    }

    @Test
    void aCameraEventGivesAnAppearsInEdgePerLabelAndItsDeletionDeletesThemButNotSharedNodes() {
        EpisodeDoc e = episode("scene_activity", null, "Camera scene with person, cup", List.of("person", "cup"), List.of(), 4, false);
        List<GraphDoc> g = MemoryGraph.fromEpisode(e);
        assertThat(g).filteredOn(d -> d.kind().equals("appears_in")).extracting(GraphDoc::sourceLabel).containsExactly("person", "cup");
        EpisodeDoc gone = episode("scene_activity", null, "Camera scene with person, cup", List.of("person", "cup"), List.of(), 5, true);
        List<GraphDoc> deleted = MemoryGraph.fromEpisode(gone);
        assertThat(deleted).allMatch(GraphDoc::deleted);
        assertThat(deleted).extracting(GraphDoc::id).containsExactlyElementsOf(g.stream().map(GraphDoc::id).toList());
        GraphDoc screenDeleted = MemoryGraph.fromEpisode(episode("screen_activity", "gedit", "Using a.txt - gedit", List.of(), List.of(), 3, true))
                .stream().filter(d -> d.id().contains(":g:app:")).findFirst().orElse(null);
        assertThat(screenDeleted).as("the app node stays").isNull();
    }

    @Test
    void aTrackGivesItsNodeAndAnEdgeWithAtMostSixEvidenceFramesFirstAndLastIncluded() {
        List<TrackPoint> line = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            line.add(new TrackPoint(10 + 5L * i, 400L + 200L * i, 0, 0, 10, 10, 0.9));
        }
        TrackDoc t = new TrackDoc("g-cam", 7L, 4, "person", 640, 480, line.get(0), line.get(19), 20, 0.9, false, 0, line, null);
        List<GraphDoc> g = MemoryGraph.fromTrack(t);
        assertThat(g).hasSize(2);
        GraphDoc edge = g.get(1);
        assertThat(edge.id()).isEqualTo("g-cam:t:000004:g:appears_in");
        assertThat(edge.kind()).isEqualTo("appears_in");
        assertThat(edge.level()).isEqualTo(GraphDoc.HIGH);
        assertThat(edge.startMs()).isEqualTo(400);
        assertThat(edge.endMs()).isEqualTo(4_200);
        assertThat(edge.frameIds()).hasSize(6).startsWith("g-cam:f:0000000010").endsWith("g-cam:f:0000000105");
        assertThat(edge.text()).contains("person (track 4)").contains("0.4-4.2 s");
        assertThat(edge.progress()).isEqualTo(41);
    }

    @Test
    void speechGivesAnUtteranceAndASaysEdgeAFailedRecognitionNothing() {
        TranscriptDoc ok = new TranscriptDoc("g-talk", 9L, 1_500, 3_000, 0.9, -20, "silero", "whisper", TranscriptDoc.OK, " the keys are on the table ",
                List.of(), null);
        List<GraphDoc> g = MemoryGraph.fromTranscript(ok);
        assertThat(g).extracting(GraphDoc::kind).containsExactly("utterance", "says");
        assertThat(g.get(1).level()).isEqualTo(GraphDoc.UTTERANCE);
        assertThat(g.get(1).text()).isEqualTo("speaker says: the keys are on the table");
        assertThat(g.get(1).clipId()).isEqualTo(ok.id());
        TranscriptDoc failed = new TranscriptDoc("g-talk", 9L, 1_500, 3_000, 0.9, -20, "silero", "whisper", TranscriptDoc.FAILED, null, List.of(),
                "timeout");
        assertThat(MemoryGraph.fromTranscript(failed)).isEmpty();
    }

    @Test
    void anActivityIsADoesEdgeOverItsFrames() {
        ActivityDoc a = new ActivityDoc("g-cam", 7L, 2, "walking", 0.8, 1_000, 3_000, 5, List.of(30L, 35L, 40L));
        GraphDoc d = MemoryGraph.fromActivity(a).get(0);
        assertThat(d.kind()).isEqualTo("does");
        assertThat(d.sourceId()).isEqualTo("g-cam:t:000002:g");
        assertThat(d.frameIds()).containsExactly("g-cam:f:0000000030", "g-cam:f:0000000035", "g-cam:f:0000000040");
        assertThat(d.text()).isEqualTo("person (track 2) does walking");
    }
}
