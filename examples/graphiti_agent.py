"""An agent's memory loop written against Graphiti's API.

It runs on midas_graph unchanged except for where ``Graphiti`` comes from and
the constructor line: no Neo4j, no LLM, no API key. Run it with
``python examples/graphiti_agent.py``.
"""

import asyncio
from datetime import datetime, timezone

from graphiti_core.edges import EntityEdge
from graphiti_core.nodes import EntityNode, EpisodeType
from graphiti_core.search.search_filters import ComparisonOperator, DateFilter, SearchFilters

from midas_graph.graphiti import Graphiti  # was: from graphiti_core import Graphiti

CONVERSATION = [
    ("2024-01-15", "Maya: Hi! I live in Porto and I work as a nurse."),
    ("2024-01-15", "assistant: Nice to meet you, Maya. Porto is lovely."),
    ("2024-03-20", "Maya: Big news: I moved to Lisbon in March."),
    ("2024-04-02", "Maya: My favorite food is bacalhau."),
]


def day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


async def main() -> None:
    graphiti = Graphiti()  # was: Graphiti(NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD)
    try:
        await graphiti.build_indices_and_constraints()

        # 1. Remember every turn of the conversation.
        episodes = []
        for i, (when, turn) in enumerate(CONVERSATION):
            result = await graphiti.add_episode(
                name=f"turn {i}",
                episode_body=turn,
                source=EpisodeType.message,
                source_description="chat with Maya",
                reference_time=day(when),
            )
            episodes.append(result.episode)

        # 2. Before answering, look the question up.
        for question in ("Where does Maya live now?", "What is Maya's favorite food?"):
            edges = await graphiti.search(question, num_results=3)
            print(f"{question} -> {edges[0].fact if edges else 'nothing known'}")

        # 3. What used to be true (edges whose valid time has ended).
        ended = SearchFilters(invalid_at=[[DateFilter(comparison_operator=ComparisonOperator.is_not_null)]])
        print("Past beliefs:")
        for edge in await graphiti.search("Where does Maya live?", search_filter=ended):
            print(f"  [superseded] {edge.fact} ({edge.valid_at:%Y-%m-%d} to {edge.invalid_at:%Y-%m-%d})")

        # 4. Store a fact the agent already knows as a triple, no extraction.
        maya = EntityNode(name="Maya", group_id="default", labels=["Person"])
        clinic = EntityNode(name="Clinica Lisboa", group_id="default")
        works = EntityEdge(
            group_id="default", source_node_uuid=maya.uuid, target_node_uuid=clinic.uuid,
            created_at=datetime.now(timezone.utc), name="WORKS_AT",
            fact="Maya works at Clinica Lisboa", valid_at=day("2024-04-01"),
        )
        await graphiti.add_triplet(maya, works, clinic)
        edges = await graphiti.search("Where does Maya work?", num_results=1)
        print(f"Where does Maya work? -> {edges[0].fact}")

        # 5. The recent context window of the conversation.
        recent = await graphiti.retrieve_episodes(day("2024-12-31"), last_n=2)
        print("Last two turns:", " | ".join(e.content for e in recent))

        # 6. The user asks to forget a message.
        await graphiti.remove_episode(episodes[2].uuid)
        edges = await graphiti.search("Where does Maya live now?", num_results=1)
        print(f"After forgetting the move: {edges[0].fact if edges else 'nothing known'}")
    finally:
        await graphiti.close()


if __name__ == "__main__":
    asyncio.run(main())
