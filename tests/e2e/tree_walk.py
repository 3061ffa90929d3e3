"""Walking a presented snapshot tree (data.tree) in the e2e tests of budgets and refs."""


def nodes(tree):
    """Every node of the tree, pre-order."""
    yield tree
    for c in tree.get("children", []):
        yield from nodes(c)


def refs(tree):
    """The nodes that carry a ref_id, in document order."""
    return [n for n in nodes(tree) if "ref_id" in n]
