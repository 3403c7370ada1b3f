"""Puerto Rico's fixed facts the page draws with (``/facts.json``, web/facts.py), read from
the engine's own tables, and the buildings' effects in words."""

from __future__ import annotations

from typing import Any

from ...engine.puerto_rico import data as pr_data


#: What each Puerto Rico building does, in words (the page's tooltips and building list; the
#: rules are the engines': engine/puerto_rico).
PUERTO_RICO_EFFECTS = {
    "small_indigo_plant": "Craftsman: each colonist here turns a manned indigo plantation's crop into an indigo barrel.",
    "small_sugar_mill": "Craftsman: each colonist here turns a manned sugar plantation's crop into a sugar barrel.",
    "indigo_plant": "Craftsman: up to 3 colonists here each turn a manned indigo plantation's crop into an indigo barrel.",
    "sugar_mill": "Craftsman: up to 3 colonists here each turn a manned sugar plantation's crop into a sugar barrel.",
    "tobacco_storage": "Craftsman: up to 3 colonists here each turn a manned tobacco plantation's crop into a tobacco barrel.",
    "coffee_roaster": "Craftsman: up to 2 colonists here each turn a manned coffee plantation's crop into a coffee barrel.",
    "small_market": "Trader: +1 doubloon when you sell to the trading house.",
    "hacienda": "Settler: before your face-up tile, you may take one extra plantation unseen from the stack.",
    "construction_hut": "Settler: you may take a quarry instead of a face-up plantation.",
    "small_warehouse": "Captain: at the end of the phase you keep all barrels of one kind besides the one barrel.",
    "hospice": "Settler: the tile you take may come with a colonist from the supply.",
    "office": "Trader: you may sell a kind the trading house already holds.",
    "large_market": "Trader: +2 doubloons when you sell to the trading house.",
    "large_warehouse": "Captain: at the end of the phase you keep all barrels of two kinds besides the one barrel.",
    "factory": "Craftsman: doubloons for the kinds you produce: 2 kinds 1, 3 kinds 2, 4 kinds 3, 5 kinds 5.",
    "university": "Builder: the building you build may come with a colonist from the supply.",
    "harbor": "Captain: +1 VP each time you load goods.",
    "wharf": "Captain: once a phase, ship all your barrels of one kind to the supply for 1 VP each, as if loaded.",
    "guild_hall": "Game end: 1 VP per small and 2 VP per large production building you own.",
    "residence": "Game end: VP for your island: up to 9 tiles 4, 10 tiles 5, 11 tiles 6, 12 tiles 7.",
    "fortress": "Game end: 1 VP per 3 colonists you own.",
    "customs_house": "Game end: 1 VP per 4 VP chips you hold.",
    "city_hall": "Game end: 1 VP per violet building you own.",
    "aqueduct": "Craftsman: +1 indigo if your Indigo Plant produces, +1 sugar if your Sugar Mill produces.",
    "forest_house": "Settler: you may lay a face-up plantation down as a forest; Builder: every 2 forests cost 1 doubloon less.",
    "black_market": "Builder: pay up to 3 doubloons less by giving up one colonist, one barrel and one VP chip at most.",
    "storehouse": "Captain: at the end of the phase you keep 3 more barrels of any kinds.",
    "guest_house": "Mayor: holds up to 2 guests who may later move to an empty circle and work there.",
    "trading_post": "Trader: you may sell your barrel to your own trading post instead of the house, any kind.",
    "church": "Builder: VP chips for each building you build: column 2 or 3 +1, column 4 +2.",
    "small_wharf": "Captain: once a phase, ship any barrels to the supply for 1 VP per 2 barrels.",
    "lighthouse": "Captain: +1 doubloon each time you load; +1 more when you take the Captain role.",
    "specialty_factory": "Craftsman: doubloons equal to your largest production of one kind, less 1.",
    "library": "Doubles the privilege of each role you take.",
    "union_hall": "Captain: at the start of the phase, 1 VP per 2 barrels of a kind you hold.",
    "cloister": "Game end: VP for sets of 3 like island tiles: 1, 3, 6 or 10 for 1 to 4 sets.",
    "statue": "8 VP; it needs no colonist.",
}


def facts() -> dict[str, Any]:
    """What the page needs besides a position to draw one: goods, prices, spaces, buildings."""
    return {
        "goods": list(pr_data.GOODS),
        "prices": list(pr_data.PRICES),
        "island_spaces": pr_data.ISLAND_SPACES,
        "city_spaces": pr_data.CITY_SPACES,
        "buildings": [{"name": b.name, "cost": b.cost, "vp": b.vp, "circles": b.circles, "spaces": b.spaces,
                       "good": None if b.good is None else pr_data.GOODS[b.good],
                       "expansion": i >= pr_data.NUM_BASE_BUILDINGS, "effect": PUERTO_RICO_EFFECTS[b.name]}
                      for i, b in enumerate(pr_data.BUILDINGS)],
    }
