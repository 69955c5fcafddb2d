from typing import Any, Tuple

STATUS: Tuple[str, str, str, str]

def solve2(p: Any, r1: Any, r2: Any, bend: float = ..., stretch: bool = ..., soften: float = ...) -> Tuple[Any, Any]: ...
def solve3(p: Any, r1: Any, r2: Any, pole: Any = ..., bend: float = ..., stretch: bool = ...,
           soften: float = ...) -> Tuple[Any, Any]: ...
